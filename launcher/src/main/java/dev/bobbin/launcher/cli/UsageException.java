package dev.bobbin.launcher.cli;

/** A bad command line; the message names the problem and the caller appends the command's usage. */
public class UsageException extends RuntimeException {
  public UsageException(String message) {
    super(message);
  }
}
