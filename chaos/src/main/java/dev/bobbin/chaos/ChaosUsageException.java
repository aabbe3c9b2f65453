package dev.bobbin.chaos;

/** A {@code bobbin chaos} command line the user got wrong; the message names what. */
public final class ChaosUsageException extends RuntimeException {
  public ChaosUsageException(String message) {
    super(message);
  }
}
