package dev.bobbin.chaos;

import dev.bobbin.protocol.rest.AppInfo;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** The applications the harness submitted, and what the RM last said about each. Thread-safe. */
final class AppTracker {
  static final Set<String> FINAL_STATES = Set.of("FINISHED", "FAILED", "KILLED");

  /**
   * One application. {@code accepted}: the RM answered the submission with success, so it must
   * finish; otherwise the submission's answer was lost and it may or may not exist. {@code
   * keepContainers}: a long-running service, which keeps its containers across attempts.
   */
  record App(String id, boolean accepted, long submittedAtMs, boolean keepContainers, String state,
      String finalStatus, long finishedTimeMs, String diagnostics) {
    boolean isFinal() {
      return FINAL_STATES.contains(state);
    }

    boolean succeeded() {
      return "FINISHED".equals(state) && "SUCCEEDED".equals(finalStatus);
    }

    App seen(String newState, String newFinal, long finishedTime, String diag) {
      return new App(id, accepted, submittedAtMs, keepContainers, newState, newFinal, finishedTime, diag);
    }
  }

  private final ConcurrentHashMap<String, App> apps = new ConcurrentHashMap<>();
  private final AtomicInteger refusals = new AtomicInteger();

  void accepted(String id, long atMs, boolean keepContainers) {
    apps.merge(id, new App(id, true, atMs, keepContainers, "SUBMITTED", "UNDEFINED", 0, ""),
        (old, fresh) -> new App(id, true, old.submittedAtMs(), keepContainers, old.state(), old.finalStatus(),
            old.finishedTimeMs(), old.diagnostics()));
  }

  /** A submission whose answer never came (a timeout, a dropped connection). */
  void ambiguous(String id, long atMs, boolean keepContainers) {
    apps.putIfAbsent(id, new App(id, false, atMs, keepContainers, "UNKNOWN", "UNDEFINED", 0, ""));
  }

  void refused() {
    refusals.incrementAndGet();
  }

  int refusals() {
    return refusals.get();
  }

  /** An application as the RM's REST API shows it; unknown ids are ignored. */
  void seen(AppInfo app) {
    if (app.id() == null) return;
    apps.computeIfPresent(app.id(), (k, old) -> old.seen(
        app.state() == null ? old.state() : app.state().name(),
        app.finalStatus() == null ? old.finalStatus() : app.finalStatus().name(), app.finishedTime(),
        app.diagnostics() == null ? "" : app.diagnostics()));
  }

  Optional<App> get(String id) {
    return Optional.ofNullable(apps.get(id));
  }

  List<App> all() {
    return apps.values().stream().sorted(Comparator.comparing(App::id)).toList();
  }

  List<App> accepted() {
    return all().stream().filter(App::accepted).toList();
  }

  /** Accepted applications not yet known to have ended. */
  List<String> running() {
    return accepted().stream().filter(a -> !a.isFinal()).map(App::id).toList();
  }

  /** When the RM says the application ended, if it has. */
  OptionalLong finishedAt(String appId) {
    App a = apps.get(appId);
    return a != null && a.isFinal() && a.finishedTimeMs() > 0 ? OptionalLong.of(a.finishedTimeMs()) : OptionalLong.empty();
  }
}
