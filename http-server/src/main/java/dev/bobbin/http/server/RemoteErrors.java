package dev.bobbin.http.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.bobbin.protocol.RemoteException;
import dev.bobbin.protocol.WireJson;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.StatusCodes;

/**
 * YARN's {@code RemoteException} error bodies, and the exception a YARN client expects with each
 * status that Bobbin's routes do not name one for themselves.
 */
public final class RemoteErrors {
  public static final String BAD_REQUEST = "org.apache.hadoop.yarn.webapp.BadRequestException";
  public static final String NOT_FOUND = "org.apache.hadoop.yarn.webapp.NotFoundException";
  /** A failure that may pass: the caller should try again shortly. */
  public static final String RETRIABLE = "org.apache.hadoop.ipc.RetriableException";
  /** What YARN's web services (JAX-RS) answer a method or a media type they do not serve with. */
  static final String NOT_ALLOWED = "javax.ws.rs.NotAllowedException";
  static final String NOT_SUPPORTED = "javax.ws.rs.NotSupportedException";
  static final String WEB_APPLICATION = "javax.ws.rs.WebApplicationException";
  static final String SERVER_ERROR = "org.apache.hadoop.yarn.exceptions.YarnRuntimeException";

  private RemoteErrors() {}

  /**
   * @param message as the exception's message; YARN's web-app exceptions carry it behind
   *     {@code java.lang.Exception: }, and so does this
   */
  public static HttpResponse response(int status, String javaClassName, String message) {
    String text = javaClassName.startsWith("org.apache.hadoop.yarn.webapp.") ? "java.lang.Exception: " + message : message;
    try {
      return HttpResponse.create().withStatus(StatusCodes.get(status)).withEntity(ContentTypes.APPLICATION_JSON,
          WireJson.mapper().writeValueAsBytes(RemoteException.of(javaClassName, text)));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot write an error body", e);
    }
  }

  /** With the exception that goes with {@code status}. */
  public static HttpResponse response(int status, String message) {
    return response(status, exceptionOf(status), message);
  }

  static String exceptionOf(int status) {
    return switch (status) {
      case 400 -> BAD_REQUEST;
      case 404 -> NOT_FOUND;
      case 405 -> NOT_ALLOWED;
      case 415 -> NOT_SUPPORTED;
      default -> status >= 500 ? SERVER_ERROR : WEB_APPLICATION;
    };
  }
}
