package dev.bobbin.launcher.cli;

import dev.bobbin.protocol.client.CallException;
import dev.bobbin.protocol.client.RemoteErrorException;
import dev.bobbin.protocol.client.UnreachableException;
import dev.bobbin.protocol.client.UnreadableReplyException;
import java.util.List;

/** Turns a call the ResourceManager failed into the one line the user sees, with its exit code. */
final class RmErrors {
  // YARN's NotFound/BadRequest exceptions wrap "new Exception(msg)", which prefixes the message.
  private static final String WRAPPED_PREFIX = "java.lang.Exception: ";
  private static final int MAX_TEXT = 300;

  private RmErrors() {}

  /** @param rms the addresses the call was given, in order */
  static RmFailure failure(CallException e, List<String> rms) {
    if (e instanceof UnreachableException u) return RmFailure.unreachable(where(u, rms), u.reason());
    if (e instanceof RemoteErrorException r) return RmFailure.error(describe(r));
    UnreadableReplyException u = (UnreadableReplyException) e;
    return RmFailure.error(u.notJson()
        ? "The ResourceManager answered " + u.url() + " with something that is not JSON: " + abbreviate(u.excerpt())
        : u.getMessage());
  }

  static String describe(RemoteErrorException e) {
    if (e.exception().isEmpty()) {
      String text = e.remoteMessage().strip();
      return "The ResourceManager answered HTTP " + e.status() + (text.isEmpty() ? "" : ": " + abbreviate(text));
    }
    String message = e.remoteMessage();
    if (message.startsWith(WRAPPED_PREFIX)) message = message.substring(WRAPPED_PREFIX.length());
    return e.exception() + ": " + message;
  }

  /** A refused connection moves on to the next RM, so then every one was tried; else the one in the URL failed. */
  private static String where(UnreachableException e, List<String> rms) {
    if (e.connectFailed() || e.url().isEmpty()) return String.join(", ", rms);
    return rms.stream().filter(rm -> e.url().startsWith(rm + "/")).findFirst().orElse(e.url());
  }

  static String abbreviate(String text) {
    String oneLine = text.strip().replaceAll("\\s+", " ");
    return oneLine.length() <= MAX_TEXT ? oneLine : oneLine.substring(0, MAX_TEXT) + "...";
  }
}
