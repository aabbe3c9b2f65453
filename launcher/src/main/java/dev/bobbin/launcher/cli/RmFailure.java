package dev.bobbin.launcher.cli;

/** The ResourceManager could not be reached, or answered with an error; carries the CLI exit code. */
final class RmFailure extends RuntimeException {
  static final int RM_ERROR = 1;
  static final int UNREACHABLE = 2;

  private final int exitCode;

  private RmFailure(String message, int exitCode) {
    super(message);
    this.exitCode = exitCode;
  }

  static RmFailure unreachable(String rm, String reason) {
    return new RmFailure("Cannot reach the ResourceManager at " + rm + ": " + reason, UNREACHABLE);
  }

  static RmFailure error(String message) {
    return new RmFailure(message, RM_ERROR);
  }

  int exitCode() {
    return exitCode;
  }
}
