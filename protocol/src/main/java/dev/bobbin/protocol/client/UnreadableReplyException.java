package dev.bobbin.protocol.client;

import com.fasterxml.jackson.core.JsonParseException;

/** A 2xx answer whose body is not what the call expects. */
public final class UnreadableReplyException extends CallException {
  private final String excerpt;

  public UnreadableReplyException(String url, int status, Class<?> expected, Throwable cause) {
    this(url, status, expected, cause, new byte[0]);
  }

  /** @param body the answer's body, whose start {@link #excerpt()} keeps for a diagnostic */
  public UnreadableReplyException(String url, int status, Class<?> expected, Throwable cause, byte[] body) {
    super(url, url + " answered HTTP " + status + " with an unreadable " + expected.getSimpleName() + ": "
        + firstLine(cause.getMessage()), cause);
    this.excerpt = ClientJson.excerpt(body);
  }

  /** The start of the body, or empty when the caller did not give it. */
  public String excerpt() {
    return excerpt;
  }

  /** True when the body is not JSON at all (an HTML page from a proxy, say), rather than JSON of another shape. */
  public boolean notJson() {
    for (Throwable t = getCause(); t != null; t = t.getCause()) {
      if (t instanceof JsonParseException) return true;
    }
    return false;
  }

  private static String firstLine(String s) {
    if (s == null) return "";
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  @Override
  public boolean worthTryingAnotherServer() {
    return true;
  }
}
