package dev.bobbin.chaos;

import dev.bobbin.launcher.cli.UsageException;

/** A {@code bobbin chaos} command line the user got wrong; the message names what. */
public final class ChaosUsageException extends UsageException {
  public ChaosUsageException(String message) {
    super(message);
  }
}
