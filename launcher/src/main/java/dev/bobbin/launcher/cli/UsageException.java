package dev.bobbin.launcher.cli;

/** A bad command line; the message names the problem and the caller appends the command's usage. */
final class UsageException extends RuntimeException {
  UsageException(String message) {
    super(message);
  }
}
