package dev.bobbin.http.server;

import org.apache.pekko.event.LoggingAdapter;
import org.apache.pekko.http.ParsingErrorHandler;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.scaladsl.model.ErrorInfo;
import org.apache.pekko.http.scaladsl.model.StatusCode;
import org.apache.pekko.http.scaladsl.settings.ServerSettings;

/**
 * The server's answer to a request it cannot even hand to a route (an over-long URI or header, a
 * garbled request line): YARN's {@code RemoteException} with Pekko's status. Named by class in
 * the server settings ({@link RequestGuard#serverSettings}); Pekko makes one with this constructor.
 */
public final class ParsingErrors extends ParsingErrorHandler {
  @Override
  public HttpResponse handle(StatusCode status, ErrorInfo info, LoggingAdapter log, ServerSettings settings) {
    log.warning("Refused a request the server could not parse: {}", info.formatPretty());
    return RemoteErrors.response(status.intValue(), info.summary());
  }
}
