package dev.bobbin.protocol.client;

/** A 2xx answer whose body is not what the call expects. */
public final class UnreadableReplyException extends CallException {
  public UnreadableReplyException(String url, int status, Class<?> expected, Throwable cause) {
    super(url, url + " answered HTTP " + status + " with an unreadable " + expected.getSimpleName() + ": "
        + firstLine(cause.getMessage()), cause);
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
