package dev.bobbin.core.app;

import dev.bobbin.protocol.CborSerializable;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.Resource;
import java.util.List;
import java.util.Map;

/**
 * A validated submission context: what the client asked for, with defaults applied.
 *
 * @param priority the application's priority, higher first; before placement, below 0 when none
 *     was asked for
 * @param acls the application's ACLs in Hadoop's string form; a type not given allows no one but
 *     the owner, the administrators and the queue's administrators
 * @param keepContainers YARN's {@code keep-containers-across-application-attempts}: an attempt that
 *     ends leaves its running containers to the next one; false in journals from before it existed
 * @param attemptFailuresValidityInterval YARN's {@code attempt-failures-validity-interval} in ms: only
 *     attempt failures this recent count against {@code maxAttempts}; 0 or less, every failure counts
 * @param lifetime YARN's LIFETIME timeout, in ms from the submission: an application still running
 *     then is killed; 0 or less, none
 * @param unmanagedAm YARN's {@code unmanaged-AM}: the client runs the AM itself, so no AM container
 *     is asked for or launched; false in journals from before it existed
 */
public record Submission(
    String appId,
    String name,
    String user,
    String queue,
    int priority,
    String applicationType,
    List<String> tags,
    Resource amResource,
    ContainerLaunchContext amLaunch,
    int maxAttempts,
    Map<ApplicationAccessType, String> acls,
    boolean keepContainers,
    long attemptFailuresValidityInterval,
    long lifetime,
    boolean unmanagedAm) implements CborSerializable {
  public Submission {
    tags = tags == null ? List.of() : List.copyOf(tags);
    // Null in submissions journalled before applications had ACLs.
    acls = acls == null ? Map.of() : Map.copyOf(acls);
  }

  /** The RM launches the AM. */
  public Submission(String appId, String name, String user, String queue, int priority, String applicationType,
      List<String> tags, Resource amResource, ContainerLaunchContext amLaunch, int maxAttempts,
      Map<ApplicationAccessType, String> acls, boolean keepContainers, long attemptFailuresValidityInterval,
      long lifetime) {
    this(appId, name, user, queue, priority, applicationType, tags, amResource, amLaunch, maxAttempts, acls,
        keepContainers, attemptFailuresValidityInterval, lifetime, false);
  }

  /** Containers are not kept across attempts, every attempt failure counts, and no lifetime. */
  public Submission(String appId, String name, String user, String queue, int priority, String applicationType,
      List<String> tags, Resource amResource, ContainerLaunchContext amLaunch, int maxAttempts,
      Map<ApplicationAccessType, String> acls) {
    this(appId, name, user, queue, priority, applicationType, tags, amResource, amLaunch, maxAttempts, acls, false);
  }

  /** Every attempt failure counts, and no lifetime. */
  public Submission(String appId, String name, String user, String queue, int priority, String applicationType,
      List<String> tags, Resource amResource, ContainerLaunchContext amLaunch, int maxAttempts,
      Map<ApplicationAccessType, String> acls, boolean keepContainers) {
    this(appId, name, user, queue, priority, applicationType, tags, amResource, amLaunch, maxAttempts, acls,
        keepContainers, -1, -1);
  }

  /** Without ACLs of its own. */
  public Submission(String appId, String name, String user, String queue, int priority, String applicationType,
      List<String> tags, Resource amResource, ContainerLaunchContext amLaunch, int maxAttempts) {
    this(appId, name, user, queue, priority, applicationType, tags, amResource, amLaunch, maxAttempts, Map.of());
  }

  public Submission withPriority(int effective) {
    return new Submission(appId, name, user, queue, effective, applicationType, tags, amResource, amLaunch, maxAttempts,
        acls, keepContainers, attemptFailuresValidityInterval, lifetime, unmanagedAm);
  }

  public Submission withQueue(String placed) {
    return new Submission(appId, name, user, placed, priority, applicationType, tags, amResource, amLaunch, maxAttempts,
        acls, keepContainers, attemptFailuresValidityInterval, lifetime, unmanagedAm);
  }

  public Submission withAttemptFailuresValidityInterval(long interval) {
    return new Submission(appId, name, user, queue, priority, applicationType, tags, amResource, amLaunch, maxAttempts,
        acls, keepContainers, interval, lifetime, unmanagedAm);
  }

  /** @param ms how long after its submission the application may run; 0 or less, without end */
  public Submission withLifetime(long ms) {
    return new Submission(appId, name, user, queue, priority, applicationType, tags, amResource, amLaunch, maxAttempts,
        acls, keepContainers, attemptFailuresValidityInterval, ms, unmanagedAm);
  }

  /** @param unmanaged whether the client runs the AM itself */
  public Submission withUnmanagedAm(boolean unmanaged) {
    return new Submission(appId, name, user, queue, priority, applicationType, tags, amResource, amLaunch, maxAttempts,
        acls, keepContainers, attemptFailuresValidityInterval, lifetime, unmanaged);
  }
}
