package dev.bobbin.core.directory;

import dev.bobbin.core.app.AppState;
import dev.bobbin.protocol.YarnApplicationState;
import java.util.EnumMap;
import java.util.Map;

/**
 * How many applications are in each state, also counting those that ended and left the list: an
 * ended state counts every application that ever ended in it, and all states together every
 * application ever submitted.
 */
public record AppCounts(Map<AppState, Long> byState) {
  /** Keeps the states that hold applications. */
  public AppCounts {
    Map<AppState, Long> held = new EnumMap<>(AppState.class);
    byState.forEach((state, apps) -> {
      if (apps != 0) held.put(state, apps);
    });
    byState = Map.copyOf(held);
  }

  public long submitted() {
    return byState.values().stream().mapToLong(Long::longValue).sum();
  }

  /** The applications whose state YARN reports as {@code state}. */
  public long in(YarnApplicationState state) {
    long n = 0;
    for (Map.Entry<AppState, Long> e : byState.entrySet()) if (e.getKey().toYarn() == state) n += e.getValue();
    return n;
  }
}
