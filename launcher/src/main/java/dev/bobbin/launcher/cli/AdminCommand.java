package dev.bobbin.launcher.cli;

import java.io.PrintStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code bobbin admin ACTION}: the RM's administration, as {@code yarn rmadmin}. */
@Command(name = "admin", header = "Administers the ResourceManager, as yarn rmadmin: admin refresh-queues.")
final class AdminCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "Missing action: refresh-queues");
  }

  /** {@code bobbin admin refresh-queues}: reloads the Fair queues, like {@code yarn rmadmin -refreshQueues}. */
  @Command(name = "refresh-queues", header = "Reloads the Fair scheduler's queues, as yarn rmadmin -refreshQueues.",
      description = "Re-reads the allocation file or queue configuration; an invalid one is refused with the element"
          + " and the reason, and the running configuration stays.")
  static final class RefreshQueues extends ClientCommand {
    RefreshQueues(ClientContext context, PrintStream out) {
      super(context, out);
    }

    @Override
    int run() {
      String result = rm().refreshQueues();
      out.println(result.isBlank() ? "Queues refreshed" : result);
      return 0;
    }
  }
}
