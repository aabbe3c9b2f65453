package dev.bobbin.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What {@code bobbin bench} was asked to run. Unset sizes are null: each scenario has its own
 * defaults, smaller under {@code --quick}.
 *
 * @param scenario one of {@link #SCENARIOS} or {@code all}
 * @param shape 1, 5 or 25 applications sharing the demand; null runs all three
 * @param policy fifo, fair or capacity (the scheduler scenario only); null runs the scenario's
 *     default (all three, for the scheduler)
 * @param out the results file whose scenario sections a run replaces; null writes nothing
 * @param jfr record the measured phase with Java Flight Recorder and summarize hot methods
 * @param postgres the RM's journal on PostgreSQL (started for the run) instead of the embedded H2
 * @param clients the submission scenario's concurrent clients; null for its default
 * @param queues how many of the ten queues the submission scenario submits to; null for all ten
 * @param auth how the bench's clients authenticate to the RMs it starts
 */
public record BenchOptions(
    String scenario, Integer nodes, Integer apps, Integer containers, Integer shape, String policy,
    Duration duration, boolean quick, boolean jfr, boolean postgres, Integer clients, Integer queues, Path out,
    String command, BenchAuth auth) {

  public static final List<String> SCENARIOS =
      List.of("scheduler", "full-path", "heartbeats", "submissions", "recovery", "memory", "journal");

  /** Where results go without {@code --out}: under the working directory, which may be a checkout. */
  static final String DEFAULT_OUT = "bench-results/benchmarks.md";

  /** A bad command line; the message says what is wrong. */
  public static final class UsageException extends dev.bobbin.launcher.cli.UsageException {
    UsageException(String message) {
      super(message);
    }
  }

  /** The options as given on {@code args}, validated; without {@code --out}, the results go to {@code defaultOut}. */
  public static BenchOptions parse(List<String> args, Path defaultOut) {
    return of(BenchCommand.parsed(args), args, defaultOut);
  }

  /** As {@link #parse(List, Path)}, into {@link #DEFAULT_OUT} under the working directory by default. */
  static BenchOptions of(BenchCommand c, List<String> args) {
    return of(c, args, Path.of(DEFAULT_OUT).toAbsolutePath());
  }

  private static BenchOptions of(BenchCommand c, List<String> args, Path defaultOut) {
    String scenario = c.scenario;
    if (!scenario.equals("all") && !SCENARIOS.contains(scenario)) {
      throw new UsageException("unknown scenario '" + scenario + "'");
    }
    Integer queues = positive("--queues", c.queues);
    if (queues != null && queues > Topology.QUEUES) {
      throw new UsageException("--queues must be at most " + Topology.QUEUES + ", was " + queues);
    }
    Integer shape = positive("--shape", c.shape);
    if (shape != null && !Set.of(1, 5, 25).contains(shape)) throw new UsageException("--shape must be 1, 5 or 25");
    String policy = c.policy == null ? null : c.policy.toLowerCase(Locale.ROOT);
    if (policy != null && !Set.of("fifo", "fair", "capacity").contains(policy)) {
      throw new UsageException("--policy must be fifo, fair or capacity");
    }
    if ("capacity".equals(policy) && !scenario.equals("scheduler")) {
      throw new UsageException("--policy capacity is measured by the scheduler scenario only");
    }
    boolean postgres = false;
    if (c.journal != null) {
      String j = c.journal.toLowerCase(Locale.ROOT);
      if (!j.equals("embedded") && !j.equals("postgres")) {
        throw new UsageException("--journal must be embedded or postgres, was '" + j + "'");
      }
      postgres = j.equals("postgres");
    }
    if (postgres && !scenario.equals("full-path") && !scenario.equals("submissions")) {
      throw new UsageException("--journal postgres is for the full-path and submissions scenarios only");
    }
    Integer clients = positive("--clients", c.clients);
    if (clients != null && !scenario.equals("submissions")) {
      throw new UsageException("--clients is for the submissions scenario only");
    }
    if (queues != null && !scenario.equals("submissions")) {
      throw new UsageException("--queues is for the submissions scenario only");
    }
    if (c.noWrite && c.out != null) throw new UsageException("--out and --no-write exclude each other");
    Path out = c.noWrite ? null : c.out != null ? c.out.toAbsolutePath() : defaultOut;
    List<String> shown = new ArrayList<>(List.of("bin/bobbin", "bench"));
    shown.addAll(args);
    return new BenchOptions(scenario, positive("--nodes", c.nodes), positive("--apps", c.apps),
        positive("--containers", c.containers), shape, policy, c.duration == null ? null : duration(c.duration),
        c.quick, c.jfr, postgres, clients, queues, out, String.join(" ", shown),
        c.auth == null ? BenchAuth.SIMPLE : BenchAuth.parse(c.auth));
  }

  /** The same options for one scenario of {@code all}. */
  BenchOptions forScenario(String name) {
    return new BenchOptions(name, nodes, apps, containers, shape, policy, duration, quick, jfr, postgres, clients,
        queues, out, command, auth);
  }

  int nodesOr(int full, int quickValue) {
    return nodes != null ? nodes : quick ? quickValue : full;
  }

  int appsOr(int full, int quickValue) {
    return apps != null ? apps : quick ? quickValue : full;
  }

  int containersOr(int full, int quickValue) {
    return containers != null ? containers : quick ? quickValue : full;
  }

  int clientsOr(int full, int quickValue) {
    return clients != null ? clients : quick ? quickValue : full;
  }

  int queuesOr(int all) {
    return queues != null ? queues : all;
  }

  Duration durationOr(Duration full, Duration quickValue) {
    return duration != null ? duration : quick ? quickValue : full;
  }

  List<String> policiesOr(List<String> dflt) {
    return policy != null ? List.of(policy) : dflt;
  }

  /** Null when not given. */
  private static Integer positive(String option, String v) {
    if (v == null) return null;
    try {
      int n = Integer.parseInt(v.replace("_", "").replace(",", ""));
      if (n <= 0) throw new UsageException(option + " must be positive, was " + v);
      return n;
    } catch (NumberFormatException e) {
      throw new UsageException(option + " must be a whole number, was '" + v + "'");
    }
  }

  static Duration duration(String v) {
    String s = v.trim().toLowerCase(Locale.ROOT);
    try {
      Duration d;
      if (s.endsWith("ms")) d = Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2)));
      else if (s.endsWith("s")) d = Duration.ofMillis((long) (Double.parseDouble(s.substring(0, s.length() - 1)) * 1000));
      else if (s.endsWith("m")) d = Duration.ofSeconds(Long.parseLong(s.substring(0, s.length() - 1)) * 60);
      else d = Duration.ofSeconds(Long.parseLong(s));
      if (d.isNegative() || d.isZero()) throw new UsageException("--duration must be positive, was " + v);
      return d;
    } catch (NumberFormatException e) {
      throw new UsageException("--duration must look like 30s, 2m or 500ms, was '" + v + "'");
    }
  }
}
