package dev.bobbin.chaos;

/** The cluster under test could not be brought up; nothing was measured. */
final class StartupException extends Exception {
  StartupException(String message) {
    super(message);
  }

  StartupException(String message, Throwable cause) {
    super(message, cause);
  }
}
