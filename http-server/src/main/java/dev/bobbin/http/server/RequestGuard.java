package dev.bobbin.http.server;

import static org.apache.pekko.http.javadsl.server.Directives.complete;
import static org.apache.pekko.http.javadsl.server.Directives.extractRequest;
import static org.apache.pekko.http.javadsl.server.Directives.handleExceptions;
import static org.apache.pekko.http.javadsl.server.Directives.handleRejections;
import static org.apache.pekko.http.javadsl.server.Directives.mapResponse;
import static org.apache.pekko.http.javadsl.server.Directives.withRequestTimeoutResponse;
import static org.apache.pekko.http.javadsl.server.Directives.withSizeLimit;

import dev.bobbin.config.HttpLimits;
import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.http.javadsl.model.ContentType;
import org.apache.pekko.http.javadsl.model.HttpEntity;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.server.ExceptionHandler;
import org.apache.pekko.http.javadsl.server.MalformedRequestContentRejection;
import org.apache.pekko.http.javadsl.server.RejectionHandler;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.http.javadsl.settings.ServerSettings;
import org.apache.pekko.http.scaladsl.model.EntityStreamSizeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every request to an HTTP server of Bobbin passes before its route reads it: a body no larger
 * than {@code bobbin.http.max-request-body} (413), in JSON or XML when there is one (415); and every
 * refusal on the way, a method the path does not serve (405), a path that does not exist (404), a
 * body that is not what the route reads (400), answered with YARN's {@code RemoteException}, as the
 * routes answer theirs, in XML to a caller that asks for XML. Nothing of the request has reached an
 * entity or an actor when it is refused.
 */
public final class RequestGuard {
  private static final Logger log = LoggerFactory.getLogger(RequestGuard.class);
  private static final String SETTING = "bobbin.http.max-request-body";

  private RequestGuard() {}

  /**
   * The settings to bind {@link #guard} with: the body limit also as the server's own, and the
   * requests the server refuses before any route sees them (an over-long URI or header, a garbled
   * request line) answered with a {@code RemoteException} too ({@link ParsingErrors}).
   */
  public static ServerSettings serverSettings(ActorSystem<?> system, HttpLimits limits) {
    ServerSettings s = ServerSettings.create(system.settings().config());
    // The peer's address on each request, which the audit log names.
    return s.withRemoteAddressAttribute(true).withParsingErrorHandler(ParsingErrors.class.getName())
        .withParserSettings(s.getParserSettings().withMaxContentLength(limits.maxRequestBody()));
  }

  public static Route guard(HttpLimits limits, Supplier<Route> inner) {
    long max = limits.maxRequestBody();
    return withRequestTimeoutResponse(RequestGuard::timedOut, () -> extractRequest(request ->
        mapResponse(r -> r.status().intValue() >= 400 ? MediaNegotiation.negotiated(request, r, null) : r,
            () -> handleExceptions(exceptions(max), () -> handleRejections(rejections(max), () -> {
              HttpResponse refused = refusal(request, max);
              return refused != null ? complete(refused) : withSizeLimit(max, inner);
            })))));
  }

  /**
   * The answer to a request that outlived {@code pekko.http.server.request-timeout}: a 503 to retry,
   * as YARN's error body; Pekko's own is plain text.
   */
  static HttpResponse timedOut(HttpRequest request) {
    log.warn("Request timed out: {} {}", request.method().value(), request.getUri().path());
    return RemoteErrors.response(503, RemoteErrors.RETRIABLE, "The server did not answer " + request.method().value()
        + " " + request.getUri().path() + " in time (pekko.http.server.request-timeout); retry");
  }

  /** A body that says it is too large, or is not JSON; null for a request the routes may read. */
  static HttpResponse refusal(HttpRequest request, long max) {
    HttpEntity entity = request.entity();
    if (entity.isKnownEmpty()) return null;
    OptionalLong length = entity.getContentLengthOption();
    if (length.isPresent() && length.getAsLong() > max) return tooLarge(max, length.getAsLong());
    if (!isJson(entity.getContentType()) && !MediaNegotiation.isXml(entity.getContentType())) {
      return RemoteErrors.response(415, "Content-Type " + entity.getContentType()
          + " is not supported: request bodies are JSON (Content-Type: application/json) or, where YARN "
          + "takes XML, XML (application/xml)");
    }
    return null;
  }

  private static boolean isJson(ContentType type) {
    return MediaNegotiation.isJson(type);
  }

  static HttpResponse tooLarge(long max, long size) {
    return RemoteErrors.response(413, "The request body" + (size > 0 ? " of " + size + " bytes" : "")
        + " is larger than the limit of " + max + " bytes (" + SETTING + ")");
  }

  /**
   * Pekko's own rejections, with their statuses (405 with the methods the path serves, 404, ...),
   * each answered as a {@code RemoteException} instead of plain text; a body that turned out too
   * large while a route read it (one sent without a length) is a 413.
   */
  private static RejectionHandler rejections(long max) {
    return RejectionHandler.newBuilder()
        .handle(MalformedRequestContentRejection.class, r -> complete(r.getCause() instanceof EntityStreamSizeException
            ? tooLarge(max, 0) : RemoteErrors.response(400, "The request body is malformed: " + r.message())))
        .build()
        .withFallback(RejectionHandler.defaultHandler())
        .mapRejectionResponse(RequestGuard::asRemoteException);
  }

  private static ExceptionHandler exceptions(long max) {
    return ExceptionHandler.newBuilder()
        .match(EntityStreamSizeException.class, e -> complete(tooLarge(max, 0)))
        .matchAny(e -> {
          log.error("Request failed", e);
          return complete(RemoteErrors.response(500, String.valueOf(e.getMessage())));
        })
        .build();
  }

  /** A plain-text refusal of Pekko's, as YARN's error body with the same status and headers. */
  static HttpResponse asRemoteException(HttpResponse r) {
    if (isJson(r.entity().getContentType())) return r;
    String text = r.entity() instanceof HttpEntity.Strict strict && !strict.getData().isEmpty()
        ? strict.getData().decodeString(StandardCharsets.UTF_8).strip() : r.status().reason();
    HttpResponse json = RemoteErrors.response(r.status().intValue(), text);
    return r.withEntity(json.entity());
  }
}
