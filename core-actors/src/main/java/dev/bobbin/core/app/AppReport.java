package dev.bobbin.core.app;

import dev.bobbin.protocol.CborSerializable;
import dev.bobbin.protocol.FinalApplicationStatus;
import dev.bobbin.protocol.Resource;
import java.util.List;
import java.util.Map;

/**
 * What an application looks like from outside: the summary that replies and read models carry.
 *
 * @param acls its submission's ACLs (see {@link Submission#acls()})
 * @param attemptFailuresValidityInterval see {@link Submission#attemptFailuresValidityInterval()}
 * @param lifetimeDeadline when the application's lifetime runs out (ms since the epoch); 0 without one
 * @param unmanagedAm see {@link Submission#unmanagedAm()}
 */
public record AppReport(
    String id,
    String user,
    String name,
    String queue,
    AppState state,
    FinalApplicationStatus finalStatus,
    String diagnostics,
    String applicationType,
    List<String> tags,
    int priority,
    long startedTime,
    long finishedTime,
    Resource amResource,
    int maxAttempts,
    List<Attempt> attempts,
    PreemptionHistory preemptions,
    Map<ApplicationAccessType, String> acls,
    long attemptFailuresValidityInterval,
    long lifetimeDeadline,
    boolean unmanagedAm) implements CborSerializable {

  public AppReport {
    // Null in reports listed before applications had ACLs.
    acls = acls == null ? Map.of() : Map.copyOf(acls);
  }

  /** The RM launches its AM. */
  public AppReport(String id, String user, String name, String queue, AppState state,
      FinalApplicationStatus finalStatus, String diagnostics, String applicationType, List<String> tags, int priority,
      long startedTime, long finishedTime, Resource amResource, int maxAttempts, List<Attempt> attempts,
      PreemptionHistory preemptions, Map<ApplicationAccessType, String> acls, long attemptFailuresValidityInterval,
      long lifetimeDeadline) {
    this(id, user, name, queue, state, finalStatus, diagnostics, applicationType, tags, priority, startedTime,
        finishedTime, amResource, maxAttempts, attempts, preemptions, acls, attemptFailuresValidityInterval,
        lifetimeDeadline, false);
  }

  /** Every attempt failure counts, and no lifetime. */
  public AppReport(String id, String user, String name, String queue, AppState state,
      FinalApplicationStatus finalStatus, String diagnostics, String applicationType, List<String> tags, int priority,
      long startedTime, long finishedTime, Resource amResource, int maxAttempts, List<Attempt> attempts,
      PreemptionHistory preemptions, Map<ApplicationAccessType, String> acls) {
    this(id, user, name, queue, state, finalStatus, diagnostics, applicationType, tags, priority, startedTime,
        finishedTime, amResource, maxAttempts, attempts, preemptions, acls, -1, 0);
  }

  /** Without ACLs of its own. */
  public AppReport(String id, String user, String name, String queue, AppState state,
      FinalApplicationStatus finalStatus, String diagnostics, String applicationType, List<String> tags, int priority,
      long startedTime, long finishedTime, Resource amResource, int maxAttempts, List<Attempt> attempts,
      PreemptionHistory preemptions) {
    this(id, user, name, queue, state, finalStatus, diagnostics, applicationType, tags, priority, startedTime,
        finishedTime, amResource, maxAttempts, attempts, preemptions, Map.of());
  }

  /** The failed attempts that count against {@link #maxAttempts()} at {@code now}. */
  public int attemptFailuresCounted(long now) {
    return AttemptFailures.counted(attempts, attemptFailuresValidityInterval, now);
  }

  public Attempt currentAttempt() {
    return attempts.isEmpty() ? null : attempts.get(attempts.size() - 1);
  }
}
