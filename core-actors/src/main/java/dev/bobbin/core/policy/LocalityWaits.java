package dev.bobbin.core.policy;

import java.util.HashMap;
import java.util.Map;

/**
 * Each application attempt's delay-scheduling state per request ({@link LocalityDelay.Wait}), which a
 * policy keeps from one pass to the next. Immutable; a pass reads it and returns the next one. A new
 * attempt of an application starts afresh, as Hadoop's state lives on the attempt.
 *
 * <p>It is not journalled: a scheduler that takes over starts every request at node-local with no
 * opportunities counted, as a restarted Hadoop ResourceManager does. That delays a container by at
 * most the thresholds once more; no guarantee rests on it.
 */
public final class LocalityWaits {
  public static final LocalityWaits EMPTY = new LocalityWaits(Map.of());

  /** One attempt's waits by request. */
  public record AttemptWaits(String attemptId, Map<RequestKey, LocalityDelay.Wait> byRequest) {
    public AttemptWaits {
      byRequest = Map.copyOf(byRequest);
    }
  }

  private final Map<String, AttemptWaits> byApp;

  private LocalityWaits(Map<String, AttemptWaits> byApp) {
    this.byApp = byApp;
  }

  /** The request's wait for this attempt; {@link LocalityDelay.Wait#NONE} if none is kept. */
  public LocalityDelay.Wait of(String appId, String attemptId, RequestKey key) {
    AttemptWaits w = byApp.get(appId);
    if (w == null || !w.attemptId().equals(attemptId)) return LocalityDelay.Wait.NONE;
    return w.byRequest().getOrDefault(key, LocalityDelay.Wait.NONE);
  }

  /** The attempt's waits as kept, empty for an attempt other than the one kept. */
  public Map<RequestKey, LocalityDelay.Wait> of(String appId, String attemptId) {
    AttemptWaits w = byApp.get(appId);
    return w == null || !w.attemptId().equals(attemptId) ? Map.of() : w.byRequest();
  }

  /** With these waits, by application id, replacing what was kept for those applications. */
  public LocalityWaits with(Map<String, AttemptWaits> changed) {
    if (changed.isEmpty()) return this;
    Map<String, AttemptWaits> next = new HashMap<>(byApp);
    next.putAll(changed);
    return new LocalityWaits(Map.copyOf(next));
  }

  /** Without the application's waits: it has ended. */
  public LocalityWaits without(String appId) {
    if (!byApp.containsKey(appId)) return this;
    Map<String, AttemptWaits> next = new HashMap<>(byApp);
    next.remove(appId);
    return new LocalityWaits(Map.copyOf(next));
  }

  /** How many applications have waits kept. */
  public int size() {
    return byApp.size();
  }
}
