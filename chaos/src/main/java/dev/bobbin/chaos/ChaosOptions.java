package dev.bobbin.chaos;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

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
    Duration faultHold,
    Duration restartDelay,
    Duration failoverTimeout,
    int nodeMemoryMb,
    int nodeVcores,
    double keepContainersShare) {

  /** The options as given on {@code args}, validated. */
  static ChaosOptions parse(List<String> args) {
    return of(ChaosCommand.parsed(args));
  }

  /** The command's options, validated: a bad one is refused with a message that names it. */
  static ChaosOptions of(ChaosCommand c) {
    FaultPlan.Spec faults = FaultPlan.parseSpec(c.faults);
    Optional<Duration> interval = Optional.ofNullable(c.faultInterval)
        .map(v -> positive("fault-interval", Durations.parse("fault-interval", v)));
    if (faults instanceof FaultPlan.Ratio && interval.isEmpty()) {
      throw new ChaosUsageException("--faults " + c.faults + " is a mix: give --fault-interval too");
    }
    return new ChaosOptions(
        positive("duration", Durations.parse("duration", c.duration)),
        integer("members", c.members, 1, 9),
        integer("nodes", c.nodes, 1, 50),
        faults, interval, rate(c.appsPerMinute),
        c.seed != null ? seed(c.seed) : System.nanoTime(),
        Optional.ofNullable(c.workDir).map(Path::of),
        Optional.ofNullable(c.classpath).filter(s -> !s.isBlank()),
        Durations.parse("drain", c.drain),
        positive("pause-hold", Durations.parse("pause-hold", c.pauseHold)),
        positive("fault-hold", Durations.parse("fault-hold", c.faultHold)),
        Durations.parse("restart-delay", c.restartDelay),
        positive("failover-timeout", Durations.parse("failover-timeout", c.failoverTimeout)),
        integer("nm-memory", c.nmMemory, 1024, 1 << 20),
        integer("nm-vcores", c.nmVcores, 1, 1024),
        share(c.keepContainersShare));
  }

  private static Duration positive(String name, Duration d) {
    if (d.isZero() || d.isNegative()) throw new ChaosUsageException("--" + name + " must be more than 0");
    return d;
  }

  private static int integer(String name, String v, int min, int max) {
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

  private static double share(String v) {
    try {
      double s = Double.parseDouble(v.strip());
      if (s >= 0 && s <= 1) return s;
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new ChaosUsageException("--keep-containers-share must be a number from 0 to 1, was '" + v + "'");
  }

  private static long seed(String v) {
    try {
      return Long.parseLong(v.strip());
    } catch (NumberFormatException e) {
      throw new ChaosUsageException("--seed must be a whole number, was '" + v + "'");
    }
  }

  String describe() {
    return String.format(Locale.ROOT,
        "%d member%s, %d node%s, duration %s, faults %s%s, %.1f apps/min (%.0f%% keep containers), seed %d",
        members, members == 1 ? "" : "s", nodes, nodes == 1 ? "" : "s", Durations.format(duration),
        FaultPlan.describe(faults), faultInterval.map(d -> " every " + Durations.format(d)).orElse(""),
        appsPerMinute, keepContainersShare * 100, seed);
  }
}
