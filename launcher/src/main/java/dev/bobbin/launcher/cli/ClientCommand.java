package dev.bobbin.launcher.cli;

import dev.bobbin.protocol.Ids;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Mixin;

/**
 * A client command of the {@code bobbin} CLI: it talks to the ResourceManager's REST API, chosen by
 * {@code --rm} and acting as {@code --user}.
 */
abstract class ClientCommand implements Callable<Integer> {
  @Mixin RmOptions target;

  final ClientContext context;
  final PrintStream out;

  ClientCommand(ClientContext context, PrintStream out) {
    this.context = context;
    this.out = out;
  }

  /** @return the process exit code */
  abstract int run();

  @Override
  public Integer call() {
    return run();
  }

  RmClient rm() {
    return RmClient.from(target.rm, target.user, context);
  }

  /** A comma list of state names, upper-cased ({@code "running, accepted"} → {@code RUNNING,ACCEPTED}). */
  static String stateList(String option, String raw) {
    String joined = Arrays.stream(raw.split(","))
        .map(String::strip)
        .filter(s -> !s.isEmpty())
        .map(s -> s.toUpperCase(Locale.ROOT))
        .collect(Collectors.joining(","));
    if (joined.isEmpty()) throw new UsageException(option + " needs at least one state");
    return joined;
  }

  static String applicationId(String id) {
    if (!Ids.isApplicationId(id)) {
      throw new UsageException(
          "Invalid application id '" + id + "', expected application_<clusterTimestamp>_<sequence>");
    }
    return id;
  }
}
