package dev.bobbin.am;

/** What came back from one call to an RM member. */
sealed interface RmReply<T> {
  /** A 2xx answer with its decoded body. */
  record Ok<T>(T body) implements RmReply<T> {}

  /**
   * A non-2xx answer. {@code exception} is the simple name from a RemoteException body, or empty
   * when the body was not one.
   */
  record Rejected<T>(int status, String exception, String message) implements RmReply<T> {
    String describe() {
      return "HTTP " + status + (exception.isEmpty() ? "" : " " + exception) + ": " + message;
    }
  }

  /** No answer: connection refused or reset, timeout, or an unreadable body. */
  record Unreachable<T>(String reason) implements RmReply<T> {}
}
