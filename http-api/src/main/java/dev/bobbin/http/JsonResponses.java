package dev.bobbin.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.bobbin.core.base.Rejection;
import dev.bobbin.core.base.Retrying;
import dev.bobbin.http.server.RemoteErrors;
import dev.bobbin.protocol.WireJson;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.StatusCode;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.model.headers.Location;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** JSON responses and YARN's RemoteException error bodies. */
final class JsonResponses {
  private static final Logger log = LoggerFactory.getLogger(JsonResponses.class);

  private JsonResponses() {}

  static HttpResponse json(StatusCode status, Object body) {
    try {
      return HttpResponse.create().withStatus(status)
          .withEntity(ContentTypes.APPLICATION_JSON, WireJson.mapper().writeValueAsBytes(body));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot write response", e);
    }
  }

  static HttpResponse ok(Object body) {
    return json(StatusCodes.OK, body);
  }

  static HttpResponse accepted(String location) {
    return HttpResponse.create().withStatus(StatusCodes.ACCEPTED).addHeader(Location.create(location));
  }

  static HttpResponse error(int status, String javaClassName, String message) {
    return RemoteErrors.response(status, javaClassName, message);
  }

  static HttpResponse badRequest(String message) {
    return error(400, Rejection.BAD_REQUEST, message);
  }

  /** Maps a failed operation to the status and exception a YARN client expects. */
  static HttpResponse failure(Throwable e) {
    Throwable t = Retrying.cause(e);
    if (t instanceof Rejection r) return error(r.status(), r.javaClassName(), r.getMessage());
    if (t instanceof TimeoutException) {
      log.warn("Request timed out: {}", t.getMessage());
      return error(503, "org.apache.hadoop.ipc.RetriableException",
          "The RM member could not reach an entity or the scheduler in time; retry: " + t.getMessage());
    }
    log.error("Request failed", t);
    return error(500, "org.apache.hadoop.yarn.exceptions.YarnRuntimeException", String.valueOf(t.getMessage()));
  }
}
