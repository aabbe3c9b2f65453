package dev.bobbin.chaos;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Which of the asked-for faults a run cannot inject here, and why; the rest of the run goes on without them. */
final class SkippedFaults {
  private SkippedFaults() {}

  /** The network fault kinds {@code spec} asks for. */
  static Set<FaultKind> networkKinds(FaultPlan.Spec spec) {
    Set<FaultKind> out = EnumSet.noneOf(FaultKind.class);
    spec.of().keySet().stream().filter(k -> k.target == FaultKind.Target.NETWORK).forEach(out::add);
    return out;
  }

  /**
   * @param unsupported why member namespaces cannot be made on this host at all
   * @param setupFailure why making them failed
   * @param unavailable network faults the namespaces' kernel or tools cannot do
   */
  static Map<FaultKind, String> decide(FaultPlan.Spec spec, int members, Optional<String> unsupported,
      Optional<String> setupFailure, Map<FaultKind, String> unavailable) {
    Set<FaultKind> wanted = networkKinds(spec);
    Map<FaultKind, String> out = new EnumMap<>(FaultKind.class);
    for (FaultKind k : wanted) {
      if (unsupported.isPresent()) {
        out.put(k, "network faults need " + unsupported.get());
      } else if (setupFailure.isPresent()) {
        out.put(k, "the member namespaces could not be set up: " + setupFailure.get());
      } else if (unavailable.containsKey(k)) {
        out.put(k, unavailable.get(k));
      } else if (members < 2 && List.of(FaultKind.ISOLATE, FaultKind.PARTITION, FaultKind.PARTITION_PAUSE).contains(k)) {
        out.put(k, "a partition needs at least 2 members");
      }
    }
    return out;
  }

  /** AM kills when no long-running application is submitted, or when AM processes cannot be found ({@link AmProcess}). */
  static Map<FaultKind, String> withoutServices(FaultPlan.Spec spec, double keepContainersShare, boolean procReadable) {
    if (spec.of(FaultKind.AM_KILL) == 0) return Map.of();
    if (keepContainersShare == 0) {
      return Map.of(FaultKind.AM_KILL, "--keep-containers-share 0 submits no long-running application");
    }
    return procReadable ? Map.of() : Map.of(FaultKind.AM_KILL, "finding an AM's process needs Linux's /proc");
  }

  /** One line per skipped kind, as the run prints it. */
  static List<String> describe(FaultPlan.Spec spec, Map<FaultKind, String> skipped) {
    return skipped.entrySet().stream().map(e -> (spec instanceof FaultPlan.Counts
        ? e.getKey().label() + "=" + spec.of(e.getKey()) + " skipped: " : e.getKey().label() + " left out of the mix: ")
        + e.getValue()).toList();
  }
}
