package dev.bobbin.launcher.cli;

import picocli.CommandLine.Option;

/** The options every client command takes: which ResourceManager, and as whom. */
final class RmOptions {
  @Option(names = "--rm", paramLabel = "URL[,URL...]",
      description = "ResourceManager address(es), tried in order (default: $BOBBIN_RM, else " + RmClient.DEFAULT_RM + ")")
  String rm;

  @Option(names = "--user", paramLabel = "NAME", description = "user to act as (default: the OS user)")
  String user;
}
