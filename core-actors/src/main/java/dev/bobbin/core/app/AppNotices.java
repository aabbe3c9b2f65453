package dev.bobbin.core.app;

/**
 * Where an application's entity reports what the scheduler follows, once the events are durable:
 * an attempt that starts or ends, a new priority or queue, and the application's end. A lost notice is
 * rebuilt from the journal by the next scheduler to recover.
 */
public interface AppNotices {
  void attemptAdded(String appId, String attemptId, Submission submission, long submitTime);

  void attemptEnded(String appId, String attemptId);

  void appEnded(String appId, AppState state);

  /** The application runs at a new priority from now on. */
  void priorityChanged(String appId, int priority);

  /** The application's lifetime runs out at {@code deadline} (ms since the epoch). */
  void lifetimeChanged(String appId, long deadline);

  /** The application runs in another leaf queue (a path below root) from now on. */
  void queueMoved(String appId, String queue);
}
