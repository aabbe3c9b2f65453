package dev.bobbin.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * The faults a run injects, in order, each with the earliest time after the steady phase starts.
 * A fault also waits for the previous one to be over (member back and serving), so with three
 * members never two are down at once and the survivors keep their majority.
 */
record FaultPlan(List<Planned> faults) {
  record Planned(Duration notBefore, FaultKind kind) {}

  /** How {@code --faults} was given. */
  sealed interface Spec permits Counts, Ratio {}

  /** {@code kill=K,pause=P,term=T} (or {@code none}): exactly these faults, in a seeded random order. */
  record Counts(int kill, int pause, int term) implements Spec {
    int total() {
      return kill + pause + term;
    }
  }

  /** {@code K:P:T} with {@code --fault-interval}: a fault per interval until the duration ends, kinds drawn by weight. */
  record Ratio(int kill, int pause, int term) implements Spec {}

  static Spec parseSpec(String text) {
    String s = text.strip().toLowerCase(Locale.ROOT);
    if (s.equals("none")) return new Counts(0, 0, 0);
    if (s.contains("=")) {
      Map<String, Integer> counts = new LinkedHashMap<>(Map.of("kill", 0, "pause", 0, "term", 0));
      for (String part : s.split(",")) {
        String[] kv = part.split("=", -1);
        if (kv.length != 2 || !counts.containsKey(kv[0].strip())) {
          throw new ChaosUsageException("--faults: '" + part + "' is not kill=N, pause=N or term=N");
        }
        counts.put(kv[0].strip(), count(kv[1], part));
      }
      return new Counts(counts.get("kill"), counts.get("pause"), counts.get("term"));
    }
    if (s.contains(":")) {
      String[] parts = s.split(":", -1);
      if (parts.length != 3) throw new ChaosUsageException("--faults: a mix is kill:pause:term, e.g. 2:1:1, was '" + text + "'");
      Ratio r = new Ratio(count(parts[0], text), count(parts[1], text), count(parts[2], text));
      if (r.kill + r.pause + r.term == 0) throw new ChaosUsageException("--faults: the mix " + text + " has no fault in it");
      return r;
    }
    throw new ChaosUsageException("--faults must be none, kill=N,pause=N,term=N or a kill:pause:term mix, was '" + text + "'");
  }

  static String describe(Spec spec) {
    if (spec instanceof Counts c) {
      return c.total() == 0 ? "none" : "kill=" + c.kill + ",pause=" + c.pause + ",term=" + c.term;
    }
    Ratio r = (Ratio) spec;
    return "mix kill:pause:term " + r.kill + ":" + r.pause + ":" + r.term;
  }

  static FaultPlan build(Spec spec, Duration duration, Optional<Duration> interval, Random random) {
    return spec instanceof Counts c ? counted(c, duration, interval, random)
        : mixed((Ratio) spec, duration, interval.orElseThrow(
            () -> new ChaosUsageException("a --faults mix needs --fault-interval")), random);
  }

  private static FaultPlan counted(Counts c, Duration duration, Optional<Duration> interval, Random random) {
    List<FaultKind> kinds = new ArrayList<>();
    kinds.addAll(Collections.nCopies(c.kill, FaultKind.KILL));
    kinds.addAll(Collections.nCopies(c.pause, FaultKind.PAUSE));
    kinds.addAll(Collections.nCopies(c.term, FaultKind.TERM));
    Collections.shuffle(kinds, random);
    int n = kinds.size();
    List<Planned> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      long step = i + 1;
      Duration at = interval.map(d -> d.multipliedBy(step)).orElse(duration.multipliedBy(step).dividedBy(n + 1));
      out.add(new Planned(at, kinds.get(i)));
    }
    return new FaultPlan(List.copyOf(out));
  }

  private static FaultPlan mixed(Ratio r, Duration duration, Duration step, Random random) {
    List<Planned> out = new ArrayList<>();
    for (Duration at = step; at.compareTo(duration) < 0; at = at.plus(step)) {
      int pick = random.nextInt(r.kill + r.pause + r.term);
      FaultKind kind = pick < r.kill ? FaultKind.KILL : pick < r.kill + r.pause ? FaultKind.PAUSE : FaultKind.TERM;
      out.add(new Planned(at, kind));
    }
    return new FaultPlan(List.copyOf(out));
  }

  private static int count(String value, String context) {
    try {
      int n = Integer.parseInt(value.strip());
      if (n >= 0) return n;
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new ChaosUsageException("--faults: '" + context + "' needs a whole number >= 0");
  }
}
