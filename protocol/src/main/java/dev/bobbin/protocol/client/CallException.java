package dev.bobbin.protocol.client;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** A call that brought no usable answer: refused with an error, never answered, or answered unreadably. */
public abstract sealed class CallException extends RuntimeException
    permits RemoteErrorException, UnreachableException, UnreadableReplyException {
  private final String url;

  CallException(String url, String message, Throwable cause) {
    super(message, cause);
    this.url = url;
  }

  public String url() {
    return url;
  }

  /**
   * True when the server could not be reached or failed on its side (no answer, a 5xx, a body it
   * should not have sent): another member of the cluster, or a later try, may do better. False
   * when it refused the request itself, which another member would refuse as well.
   */
  public abstract boolean worthTryingAnotherServer();

  /** The CallException behind a failed stage; anything else is a call that got no answer. */
  public static CallException of(Throwable error) {
    Throwable t = error;
    while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
      t = t.getCause();
    }
    return t instanceof CallException c ? c : new UnreachableException("", t);
  }
}
