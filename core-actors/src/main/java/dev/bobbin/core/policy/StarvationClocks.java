package dev.bobbin.core.policy;

import java.util.Collections;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The starvation timing a policy journals so that it survives a move of the scheduler (epoch
 * millis): for each application and leaf queue left below its share at the last check, the last
 * time it was at its share, which its timeout counts from; and for each application whose starvation
 * preemption has just served, when it may next be found starved. An entry exists only while it
 * matters; the scheduler actor journals the value whenever it changes.
 */
public record StarvationClocks(
    Map<String, Long> appsBelowSince, Map<String, Long> queuesBelowSince, Map<String, Long> appsRecheckAfter) {
  public static final StarvationClocks EMPTY = new StarvationClocks(Map.of(), Map.of(), Map.of());

  public StarvationClocks {
    appsBelowSince = Collections.unmodifiableMap(new TreeMap<>(appsBelowSince));
    queuesBelowSince = Collections.unmodifiableMap(new TreeMap<>(queuesBelowSince));
    appsRecheckAfter = Collections.unmodifiableMap(new TreeMap<>(appsRecheckAfter));
  }

  public OptionalLong appBelowSince(String appId) {
    return optional(appsBelowSince.get(appId));
  }

  public OptionalLong queueBelowSince(String queuePath) {
    return optional(queuesBelowSince.get(queuePath));
  }

  public OptionalLong appRecheckAfter(String appId) {
    return optional(appsRecheckAfter.get(appId));
  }

  private static OptionalLong optional(Long value) {
    return value == null ? OptionalLong.empty() : OptionalLong.of(value);
  }
}
