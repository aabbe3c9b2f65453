package dev.bobbin.launcher.cli;

import java.io.PrintStream;
import java.util.Set;

/** One client subcommand of the {@code bobbin} CLI. */
interface ClientCommand {
  /** Usage text, one or more lines ending in a newline. */
  String usage();

  /** Options of this command that take a value, besides the common {@code --rm} and {@code --user}. */
  Set<String> valuedOptions();

  /** Options of this command that stand alone. */
  default Set<String> switches() {
    return Set.of();
  }

  /** @return the process exit code */
  int run(CommandLine line, ClientContext context, PrintStream out);
}
