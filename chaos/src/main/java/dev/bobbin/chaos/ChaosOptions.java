package dev.bobbin.chaos;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The options of {@code bobbin chaos}, validated. */
record ChaosOptions(
    Duration duration,
    int members,
    int nodes,
    FaultPlan.Spec faults,
    Optional<Duration> faultInterval,
    double appsPerMinute,
    long seed,
    Optional<Path> workDir,
    Optional<String> classpath,
    Duration drain,
    Duration pauseHold,
    Duration restartDelay,
    Duration failoverTimeout,
    int nodeMemoryMb,
    int nodeVcores) {

  static final String USAGE = """
      bobbin chaos [--duration 60s] [--members 3] [--nodes 3] [--faults kill=1,pause=1,term=0]
                   [--fault-interval 20s] [--apps-per-minute 12] [--seed N] [--work-dir DIR]
                   [--drain 120s] [--pause-hold 40s] [--restart-delay 5s] [--failover-timeout 60s]
                   [--nm-memory 4096] [--nm-vcores 4] [--classpath CP]
        Starts PostgreSQL, RM members (separate JVMs, --journal postgres) and NodeManagers on
        127.0.0.1, submits distributed-shell applications, injects faults into random members and
        checks the invariants. Exits 0 when they held, 1 when one broke, 2 when the cluster could
        not be started, 64 on a usage error.
        --duration D          how long applications are submitted (extended until every counted fault ran)
        --faults SPEC         none; kill=K,pause=P,term=T (exact counts, spread over the duration or one
                              per --fault-interval); or a K:P:T mix drawn at every --fault-interval
        --fault-interval D    time between faults (never two at once: each waits for the last to be over)
        --apps-per-minute N   submission rate (default 12); each app: an AM and 2 containers of `sleep 2; echo ok`
        --seed N              seeds fault order, member choice and submission targets (printed; default random)
        --work-dir DIR        logs, data and NodeManager dirs (default: a new temporary directory; kept)
        --drain D             after the last submission, how long to wait for every application to end
        --pause-hold D        longest SIGSTOP: SIGCONT follows as soon as a survivor's log shows the paused
                              member downed by the split-brain resolver, at the latest after D
        --restart-delay D     a killed or terminated member is restarted on its ports D after the fault
        --failover-timeout D  longest wait for a failover to complete before it is recorded as timed out
        --nm-memory MB, --nm-vcores N   each NodeManager's capacity
        --classpath CP        classpath of the RM, NM and AM JVMs (default: this JVM's); must hold the launcher""";

  private static final Set<String> KNOWN = Set.of("duration", "members", "nodes", "faults", "fault-interval",
      "apps-per-minute", "seed", "work-dir", "classpath", "drain", "pause-hold", "restart-delay",
      "failover-timeout", "nm-memory", "nm-vcores");

  static ChaosOptions parse(List<String> args) {
    Map<String, String> named = named(args);
    Duration duration = duration(named, "duration", "60s");
    int members = integer(named, "members", 3, 1, 9);
    int nodes = integer(named, "nodes", 3, 1, 50);
    FaultPlan.Spec faults = FaultPlan.parseSpec(named.getOrDefault("faults", "kill=1,pause=1,term=0"));
    Optional<Duration> interval = Optional.ofNullable(named.get("fault-interval"))
        .map(v -> positive("fault-interval", Durations.parse("fault-interval", v)));
    if (faults instanceof FaultPlan.Ratio && interval.isEmpty()) {
      throw new ChaosUsageException("--faults " + named.get("faults") + " is a mix: give --fault-interval too");
    }
    double rate = rate(named.getOrDefault("apps-per-minute", "12"));
    long seed = named.containsKey("seed") ? seed(named.get("seed")) : System.nanoTime();
    return new ChaosOptions(
        positive("duration", duration), members, nodes, faults, interval, rate, seed,
        Optional.ofNullable(named.get("work-dir")).map(Path::of),
        Optional.ofNullable(named.get("classpath")).filter(s -> !s.isBlank()),
        duration(named, "drain", "120s"),
        positive("pause-hold", duration(named, "pause-hold", "40s")),
        duration(named, "restart-delay", "5s"),
        positive("failover-timeout", duration(named, "failover-timeout", "60s")),
        integer(named, "nm-memory", 4096, 1024, 1 << 20),
        integer(named, "nm-vcores", 4, 1, 1024));
  }

  private static Map<String, String> named(List<String> args) {
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (!a.startsWith("--")) throw new ChaosUsageException("unexpected argument '" + a + "'");
      String name = a.substring(2);
      String value = null;
      int eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      }
      if (!KNOWN.contains(name)) throw new ChaosUsageException("unknown option --" + name);
      if (value == null) {
        if (i + 1 >= args.size()) throw new ChaosUsageException("option --" + name + " needs a value");
        value = args.get(++i);
      }
      if (out.put(name, value) != null) throw new ChaosUsageException("option --" + name + " given twice");
    }
    return out;
  }

  private static Duration duration(Map<String, String> named, String name, String dflt) {
    return Durations.parse(name, named.getOrDefault(name, dflt));
  }

  private static Duration positive(String name, Duration d) {
    if (d.isZero() || d.isNegative()) throw new ChaosUsageException("--" + name + " must be more than 0");
    return d;
  }

  private static int integer(Map<String, String> named, String name, int dflt, int min, int max) {
    String v = named.get(name);
    if (v == null) return dflt;
    try {
      int n = Integer.parseInt(v.strip());
      if (n >= min && n <= max) return n;
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new ChaosUsageException("--" + name + " must be a whole number from " + min + " to " + max + ", was '" + v + "'");
  }

  private static double rate(String v) {
    try {
      double r = Double.parseDouble(v.strip());
      if (r > 0 && r <= 600) return r;
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new ChaosUsageException("--apps-per-minute must be a number above 0 and at most 600, was '" + v + "'");
  }

  private static long seed(String v) {
    try {
      return Long.parseLong(v.strip());
    } catch (NumberFormatException e) {
      throw new ChaosUsageException("--seed must be a whole number, was '" + v + "'");
    }
  }

  String describe() {
    return String.format(Locale.ROOT, "%d member%s, %d node%s, duration %s, faults %s%s, %.1f apps/min, seed %d",
        members, members == 1 ? "" : "s", nodes, nodes == 1 ? "" : "s", Durations.format(duration),
        FaultPlan.describe(faults), faultInterval.map(d -> " every " + Durations.format(d)).orElse(""),
        appsPerMinute, seed);
  }
}
