package dev.bobbin.core.app;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/** Which application states may follow which: the one place the lifecycle is written down. */
public final class ApplicationLifecycle {
  private static final Map<AppState, Set<AppState>> NEXT =
      Map.of(
          AppState.NEW, EnumSet.of(AppState.SUBMITTED),
          AppState.SUBMITTED, EnumSet.of(AppState.ACCEPTED, AppState.FAILED, AppState.KILLED),
          AppState.ACCEPTED,
              EnumSet.of(AppState.ACCEPTED, AppState.RUNNING, AppState.FAILED, AppState.KILLED,
                  AppState.FINISHED),
          AppState.RUNNING,
              EnumSet.of(AppState.ACCEPTED, AppState.FINISHED, AppState.FAILED, AppState.KILLED));

  private ApplicationLifecycle() {}

  public static boolean allowed(AppState from, AppState to) {
    return NEXT.getOrDefault(from, Set.of()).contains(to);
  }

  /** Guards the event handler: a journal that breaks the lifecycle is a bug, not input. */
  static AppState check(AppState from, AppState to) {
    if (!allowed(from, to)) {
      throw new IllegalStateException("Application cannot go from " + from + " to " + to);
    }
    return to;
  }
}
