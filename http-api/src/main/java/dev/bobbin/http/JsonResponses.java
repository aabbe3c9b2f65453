package dev.bobbin.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.bobbin.core.base.Rejection;
import dev.bobbin.core.base.Retrying;
import dev.bobbin.http.server.RemoteErrors;
import dev.bobbin.protocol.WireJson;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.pattern.CircuitBreakerOpenException;
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

  /**
   * A read of the journal's database (the application list) that found it away: no pooled
   * connection in time, or a circuit breaker open after failures.
   */
  static boolean isJournalAway(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof SQLTransientConnectionException || c instanceof CircuitBreakerOpenException) return true;
    }
    return false;
  }

  /** Maps a failed operation to the status and exception a YARN client expects. */
  static HttpResponse failure(Throwable e) {
    Throwable t = Retrying.cause(e);
    if (t instanceof Rejection r) return error(r.status(), r.javaClassName(), r.getMessage());
    if (t instanceof TimeoutException) {
      log.warn("Request timed out: {}", t.getMessage());
      return error(503, RemoteErrors.RETRIABLE,
          "The RM member could not reach an entity or the scheduler in time; retry: " + t.getMessage());
    }
    if (isJournalAway(t)) {
      log.warn("Request failed, the journal's database is unreachable: {}", t.toString());
      return error(503, RemoteErrors.RETRIABLE, "The RM member cannot reach its journal's database; retry: " + t.getMessage());
    }
    log.error("Request failed", t);
    return error(500, "org.apache.hadoop.yarn.exceptions.YarnRuntimeException", String.valueOf(t.getMessage()));
  }
}
