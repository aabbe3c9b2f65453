package dev.bobbin.node.health;

/** How one run of the health script ended. */
public sealed interface ScriptOutcome {
  /** It exited by itself with this code, having written {@code output} to its standard output. */
  record Exited(int exitCode, String output) implements ScriptOutcome {}

  /** It ran past its timeout and was stopped. */
  record TimedOut(long timeoutMs) implements ScriptOutcome {}

  /** It could not be started or watched. */
  record Failed(String error) implements ScriptOutcome {}
}
