package dev.bobbin.launcher.cli;

import dev.bobbin.protocol.Ids;
import dev.bobbin.protocol.client.CallException;
import dev.bobbin.protocol.client.Credentials;
import dev.bobbin.protocol.client.RmRestClient;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Mixin;

/**
 * A client command of the {@code bobbin} CLI: it talks to the ResourceManager's REST API, chosen by
 * {@code --rm} and calling with a token or as {@code --user}.
 */
abstract class ClientCommand implements Callable<Integer> {
  @Mixin RmOptions target;

  final ClientContext context;
  final PrintStream out;
  private List<String> rms = List.of();

  ClientCommand(ClientContext context, PrintStream out) {
    this.context = context;
    this.out = out;
  }

  /** @return the process exit code */
  abstract int run();

  @Override
  public Integer call() {
    try {
      return run();
    } catch (CallException e) {
      throw RmErrors.failure(e, rms);
    }
  }

  /** The RM's REST API at {@code --rm}, called with the command's credentials. */
  RmRestClient rm() {
    Credentials credentials = target.credentials(context);
    rms = target.rmUrls(context);
    return new RmRestClient(context.http().withCredentials(credentials), rms);
  }

  /**
   * The first RM of {@code --rm} and the transport that calls it with the command's credentials, for
   * what is answered by one member about itself (its view of the cluster), not by any of them.
   */
  OneMember member() {
    Credentials credentials = target.credentials(context);
    rms = target.rmUrls(context).subList(0, 1);
    return new OneMember(context.http().withCredentials(credentials), rms.get(0));
  }

  /** A comma list of {@code type}'s state names in any case ({@code "running, accepted"}). */
  static <E extends Enum<E>> Set<E> states(String option, String raw, Class<E> type) {
    Set<E> states = EnumSet.noneOf(type);
    for (String name : raw.split(",")) {
      String upper = name.strip().toUpperCase(Locale.ROOT);
      if (upper.isEmpty()) continue;
      try {
        states.add(Enum.valueOf(type, upper));
      } catch (IllegalArgumentException e) {
        throw new UsageException("Invalid value for option '" + option + "': unknown state '" + name.strip()
            + "', expected " + Arrays.stream(type.getEnumConstants()).map(Enum::name).collect(Collectors.joining(",")));
      }
    }
    if (states.isEmpty()) throw new UsageException(option + " needs at least one state");
    return states;
  }

  static String applicationId(String id) {
    if (!Ids.isApplicationId(id)) {
      throw new UsageException(
          "Invalid application id '" + id + "', expected application_<clusterTimestamp>_<sequence>");
    }
    return id;
  }

  static void atLeast(String option, int value, int min) {
    if (value < min) throw new UsageException(option + " must be at least " + min + ", got " + value);
  }
}
