package dev.bobbin.launcher;

import dev.bobbin.launcher.cli.ExitCodes;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * The tools {@code bin/bobbin} runs from their own modules, which depend on the launcher: listed
 * here so that {@code bobbin help} and the completion name them; run here, they say where they are.
 */
abstract class ToolCommand implements Callable<Integer> {
  @Unmatched List<String> arguments;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    String name = spec.name();
    spec.commandLine().getErr().println("bobbin " + name + " runs from the " + name
        + " module, on its own classpath: run it as bin/bobbin " + name + " (bin/bobbin " + name + " --help)");
    return ExitCodes.USAGE;
  }

  @Command(name = "chaos", header = "Faults injected into RM members and NodeManagers run as processes; checks the invariants.",
      description = "Runs from the chaos module: bin/bobbin chaos --help lists its options.")
  static final class Chaos extends ToolCommand {}

  @Command(name = "bench", header = "The real RM against simulated NodeManagers and AMs; writes the figures to a file.",
      description = "Runs from the bench module: bin/bobbin bench --help lists its options.")
  static final class Bench extends ToolCommand {}
}
