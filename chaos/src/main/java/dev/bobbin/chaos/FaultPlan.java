package dev.bobbin.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The faults a run injects, in order, each with the earliest time after the steady phase starts.
 * A fault also waits for the previous one to be over (member back and serving), so with three
 * members never two are down at once and the survivors keep their majority.
 */
record FaultPlan(List<Planned> faults) {
  record Planned(Duration notBefore, FaultKind kind) {}

  private static final String KINDS = Arrays.stream(FaultKind.values()).map(k -> k.label() + "=N")
      .collect(Collectors.joining(", "));

  /** How {@code --faults} was given: how many (or how much) of each kind; kinds with 0 are left out. */
  sealed interface Spec permits Counts, Ratio {
    Map<FaultKind, Integer> of();

    /** The same spec without {@code kinds} (faults this run cannot inject). */
    Spec without(Set<FaultKind> kinds);

    default int of(FaultKind kind) {
      return of().getOrDefault(kind, 0);
    }

    default int total() {
      return of().values().stream().mapToInt(Integer::intValue).sum();
    }
  }

  /** {@code kill=K,partition=P,...} (or {@code none}): exactly these faults, in a seeded random order. */
  record Counts(Map<FaultKind, Integer> of) implements Spec {
    Counts {
      of = nonZero(of);
    }

    Counts(int kill, int pause, int term) {
      this(classic(kill, pause, term));
    }

    @Override
    public Counts without(Set<FaultKind> kinds) {
      return new Counts(minus(of, kinds));
    }
  }

  /**
   * {@code K:P:T} (kill:pause:term) or {@code kill:2,partition:1,...} with {@code --fault-interval}:
   * a fault per interval until the duration ends, kinds drawn by weight.
   */
  record Ratio(Map<FaultKind, Integer> of) implements Spec {
    Ratio {
      of = nonZero(of);
    }

    Ratio(int kill, int pause, int term) {
      this(classic(kill, pause, term));
    }

    @Override
    public Ratio without(Set<FaultKind> kinds) {
      return new Ratio(minus(of, kinds));
    }
  }

  static Spec parseSpec(String text) {
    String s = text.strip().toLowerCase(Locale.ROOT);
    if (s.equals("none")) return new Counts(Map.of());
    if (s.contains("=")) return new Counts(named(s, "="));
    if (s.matches("[0-9:\\s]+")) {
      String[] parts = s.split(":", -1);
      if (parts.length != 3) throw new ChaosUsageException("--faults: a mix is kill:pause:term, e.g. 2:1:1, was '" + text + "'");
      return nonEmpty(new Ratio(count(parts[0], text), count(parts[1], text), count(parts[2], text)), text);
    }
    if (s.contains(":")) return nonEmpty(new Ratio(named(s, ":")), text);
    throw new ChaosUsageException("--faults must be none, kill=N,pause=N,... (exact counts), a kill:pause:term mix"
        + " or a kill:W,partition:W,... mix, was '" + text + "'");
  }

  static String describe(Spec spec) {
    if (spec instanceof Counts c) {
      if (c.total() == 0) return "none";
      // kill, pause and term always, as the classic spec reads; other kinds when given.
      return Arrays.stream(FaultKind.values())
          .filter(k -> k.target == FaultKind.Target.MEMBER || c.of(k) > 0)
          .map(k -> k.label() + "=" + c.of(k)).collect(Collectors.joining(","));
    }
    return "mix " + Arrays.stream(FaultKind.values()).filter(k -> spec.of(k) > 0)
        .map(k -> k.label() + ":" + spec.of(k)).collect(Collectors.joining(","));
  }

  static FaultPlan build(Spec spec, Duration duration, Optional<Duration> interval, Random random) {
    return spec instanceof Counts c ? counted(c, duration, interval, random)
        : mixed((Ratio) spec, duration, interval.orElseThrow(
            () -> new ChaosUsageException("a --faults mix needs --fault-interval")), random);
  }

  private static FaultPlan counted(Counts c, Duration duration, Optional<Duration> interval, Random random) {
    List<FaultKind> kinds = new ArrayList<>();
    for (FaultKind k : FaultKind.values()) kinds.addAll(Collections.nCopies(c.of(k), k));
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
    int total = r.total();
    if (total == 0) return new FaultPlan(List.of());
    for (Duration at = step; at.compareTo(duration) < 0; at = at.plus(step)) {
      int pick = random.nextInt(total);
      for (FaultKind k : FaultKind.values()) {
        pick -= r.of(k);
        if (pick < 0) {
          out.add(new Planned(at, k));
          break;
        }
      }
    }
    return new FaultPlan(List.copyOf(out));
  }

  private static Map<FaultKind, Integer> named(String s, String separator) {
    Map<FaultKind, Integer> out = new EnumMap<>(FaultKind.class);
    for (String part : s.split(",")) {
      String[] kv = part.split(separator, -1);
      Optional<FaultKind> kind = kv.length == 2 ? FaultKind.ofLabel(kv[0].strip()) : Optional.empty();
      if (kind.isEmpty()) {
        throw new ChaosUsageException("--faults: '" + part + "' is not " + KINDS.replace("=", separator));
      }
      out.put(kind.get(), count(kv[1], part));
    }
    return out;
  }

  private static Ratio nonEmpty(Ratio r, String text) {
    if (r.total() == 0) throw new ChaosUsageException("--faults: the mix " + text + " has no fault in it");
    return r;
  }

  private static Map<FaultKind, Integer> classic(int kill, int pause, int term) {
    return Map.of(FaultKind.KILL, kill, FaultKind.PAUSE, pause, FaultKind.TERM, term);
  }

  private static Map<FaultKind, Integer> nonZero(Map<FaultKind, Integer> in) {
    Map<FaultKind, Integer> out = new EnumMap<>(FaultKind.class);
    in.forEach((k, v) -> {
      if (v != 0) out.put(k, v);
    });
    return Collections.unmodifiableMap(out);
  }

  private static Map<FaultKind, Integer> minus(Map<FaultKind, Integer> in, Set<FaultKind> kinds) {
    Map<FaultKind, Integer> out = new EnumMap<>(FaultKind.class);
    in.forEach((k, v) -> {
      if (!kinds.contains(k)) out.put(k, v);
    });
    return out;
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
