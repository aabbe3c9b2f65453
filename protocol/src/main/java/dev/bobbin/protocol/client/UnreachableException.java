package dev.bobbin.protocol.client;

import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;

/** No answer: the address is bad or unknown, the connection was refused or reset, or it timed out. */
public final class UnreachableException extends CallException {
  public UnreachableException(String url, Throwable cause) {
    super(url, (url.isEmpty() ? "" : url + " unreachable: ") + summary(cause), cause);
  }

  /** True when no connection could be made; then the request never reached the server. */
  public boolean connectFailed() {
    for (Throwable t = getCause(); t != null; t = t.getCause()) {
      if (t instanceof ConnectException || t instanceof HttpConnectTimeoutException
          || t instanceof UnresolvedAddressException || t instanceof UnknownHostException) {
        return true;
      }
    }
    return false;
  }

  public boolean timedOut() {
    for (Throwable t = getCause(); t != null; t = t.getCause()) {
      if (t instanceof HttpTimeoutException) return true;
    }
    return false;
  }

  /** Why, in a few words a person understands (the JDK leaves most connect failures without a message). */
  public String reason() {
    for (Throwable t = getCause(); t != null; t = t.getCause()) {
      if (t instanceof UnresolvedAddressException || t instanceof UnknownHostException) return "unknown host";
      if (t instanceof HttpConnectTimeoutException) return "connection timed out";
      if (t instanceof HttpTimeoutException) return "no answer in time";
    }
    for (Throwable t = getCause(); t != null; t = t.getCause()) {
      if (t.getMessage() != null && !t.getMessage().isBlank()) return t.getMessage();
    }
    if (getCause() instanceof ConnectException) return "connection refused";
    return getCause() == null ? "unknown error" : getCause().getClass().getSimpleName();
  }

  @Override
  public boolean worthTryingAnotherServer() {
    return true;
  }

  private static String summary(Throwable cause) {
    if (cause == null) return "unknown error";
    String message = cause.getMessage();
    return cause.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message);
  }
}
