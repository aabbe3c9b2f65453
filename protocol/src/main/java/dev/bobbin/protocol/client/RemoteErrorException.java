package dev.bobbin.protocol.client;

import dev.bobbin.protocol.RemoteException;
import java.util.Optional;

/**
 * The server answered with an error status. When its body is YARN's RemoteException, {@code
 * exception} is its simple name (e.g. {@code ApplicationMasterNotRegisteredException}) and {@code
 * remoteMessage} its message; otherwise {@code exception} is empty and {@code remoteMessage} is the
 * start of the body.
 */
public final class RemoteErrorException extends CallException {
  private final int status;
  private final String exception;
  private final String javaClassName;
  private final String remoteMessage;

  public RemoteErrorException(String url, int status, String exception, String javaClassName, String remoteMessage) {
    super(url, url + " answered " + describe(status, exception, remoteMessage), null);
    this.status = status;
    this.exception = exception == null ? "" : exception;
    this.javaClassName = javaClassName == null ? "" : javaClassName;
    this.remoteMessage = remoteMessage == null ? "" : remoteMessage;
  }

  static RemoteErrorException of(String url, int status, byte[] body) {
    Optional<RemoteException.Body> remote = ClientJson.remoteException(body);
    if (remote.isEmpty()) return new RemoteErrorException(url, status, "", "", ClientJson.excerpt(body));
    RemoteException.Body b = remote.get();
    String name = b.exception() != null ? b.exception()
        : b.javaClassName().substring(b.javaClassName().lastIndexOf('.') + 1);
    return new RemoteErrorException(url, status, name, b.javaClassName(), String.valueOf(b.message()));
  }

  public int status() {
    return status;
  }

  /** Simple name of the server's exception, or empty when the body was not a RemoteException. */
  public String exception() {
    return exception;
  }

  public String javaClassName() {
    return javaClassName;
  }

  public String remoteMessage() {
    return remoteMessage;
  }

  /** {@code HTTP 404 NotFoundException: message}, without the URL. */
  public String describe() {
    return describe(status, exception, remoteMessage);
  }

  @Override
  public boolean worthTryingAnotherServer() {
    return status >= 500;
  }

  private static String describe(int status, String exception, String message) {
    return "HTTP " + status + (exception == null || exception.isEmpty() ? "" : " " + exception) + ": " + message;
  }
}
