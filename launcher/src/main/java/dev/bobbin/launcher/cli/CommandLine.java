package dev.bobbin.launcher.cli;

import dev.bobbin.protocol.Ids;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A parsed command line: {@code --name value} or {@code --name=value} options, boolean switches
 * and positional arguments, in any order; {@code --} ends the options.
 */
final class CommandLine {
  private final Map<String, String> values;
  private final Set<String> switches;
  private final List<String> positionals;

  private CommandLine(Map<String, String> values, Set<String> switches, List<String> positionals) {
    this.values = values;
    this.switches = switches;
    this.positionals = positionals;
  }

  /**
   * @param valued options that take a value
   * @param switchNames options that stand alone
   */
  static CommandLine parse(List<String> args, Set<String> valued, Set<String> switchNames) {
    Map<String, String> values = new HashMap<>();
    Set<String> switches = new HashSet<>();
    List<String> positionals = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (arg.equals("--")) {
        positionals.addAll(args.subList(i + 1, args.size()));
        break;
      }
      if (!arg.startsWith("-") || arg.equals("-")) {
        positionals.add(arg);
        continue;
      }
      int eq = arg.indexOf('=');
      String name = eq > 0 ? arg.substring(0, eq) : arg;
      if (valued.contains(name)) {
        if (eq > 0) {
          values.put(name, arg.substring(eq + 1));
        } else if (i + 1 < args.size()) {
          values.put(name, args.get(++i));
        } else {
          throw new UsageException("Missing value after " + name);
        }
      } else if (switchNames.contains(name) && eq < 0) {
        switches.add(name);
      } else if (switchNames.contains(name)) {
        throw new UsageException(name + " takes no value");
      } else {
        throw new UsageException("Unknown option " + name);
      }
    }
    return new CommandLine(values, switches, positionals);
  }

  Optional<String> value(String name) {
    return Optional.ofNullable(values.get(name));
  }

  String value(String name, String dflt) {
    return values.getOrDefault(name, dflt);
  }

  boolean has(String name) {
    return switches.contains(name) || values.containsKey(name);
  }

  /** The option as an int no smaller than {@code min}, or {@code dflt} when absent. */
  int intValue(String name, int dflt, int min) {
    String raw = values.get(name);
    if (raw == null) return dflt;
    int n;
    try {
      n = Integer.parseInt(raw.trim());
    } catch (NumberFormatException e) {
      throw new UsageException(name + " needs a whole number, got '" + raw + "'");
    }
    if (n < min) throw new UsageException(name + " must be at least " + min + ", got " + n);
    return n;
  }

  /** A comma list of state names, upper-cased ({@code "running, accepted"} → {@code RUNNING,ACCEPTED}). */
  Optional<String> stateList(String name) {
    return value(name).map(raw -> {
      String joined = Arrays.stream(raw.split(","))
          .map(String::strip)
          .filter(s -> !s.isEmpty())
          .map(s -> s.toUpperCase(Locale.ROOT))
          .collect(Collectors.joining(","));
      if (joined.isEmpty()) throw new UsageException(name + " needs at least one state");
      return joined;
    });
  }

  /** The one positional argument, which must be an application id. */
  String applicationId() {
    if (positionals.isEmpty()) throw new UsageException("Missing APP_ID");
    if (positionals.size() > 1) throw new UsageException("Unexpected argument " + positionals.get(1));
    String id = positionals.get(0);
    if (!Ids.isApplicationId(id)) {
      throw new UsageException(
          "Invalid application id '" + id + "', expected application_<clusterTimestamp>_<sequence>");
    }
    return id;
  }

  /** The one positional argument, which must be {@code expected}. */
  void requireAction(String expected) {
    if (positionals.size() != 1 || !positionals.get(0).equals(expected)) {
      throw new UsageException("expected exactly one action: " + expected);
    }
  }

  void requireNoPositionals() {
    if (!positionals.isEmpty()) throw new UsageException("Unexpected argument " + positionals.get(0));
  }
}
