package dev.bobbin.core.policy;

import dev.bobbin.config.QueuePath;

/**
 * What a policy family makes of application priorities (higher runs first): the cluster's cap
 * ({@code yarn.cluster.max-application-priority}) and the priority of an application submitted
 * without one ({@code default-application-priority} of its leaf). A priority above the cap becomes
 * the cap, at submission and on every update, as YARN's Capacity Scheduler does.
 */
public interface ApplicationPriorities {
  /** A submission's priority below 0: none asked for, the leaf's default applies (YARN's UNDEFINED is -1). */
  int NONE_ASKED = -1;

  /**
   * YARN's FIFO and Fair schedulers: every application runs at priority 0, whatever it asks for at
   * submission or later (their {@code checkAndGetApplicationPriority} answers 0).
   */
  ApplicationPriorities FIXED_AT_ZERO = new ApplicationPriorities() {
    @Override
    public int maxPriority() {
      return 0;
    }

    @Override
    public int defaultPriority(QueuePath leaf) {
      return 0;
    }
  };

  /** {@code yarn.cluster.max-application-priority}. */
  int maxPriority();

  /** The {@code default-application-priority} of the leaf queue. */
  int defaultPriority(QueuePath leaf);

  /** The priority a submission to {@code leaf} runs at. */
  default int atSubmission(int asked, QueuePath leaf) {
    return capped(asked < 0 ? defaultPriority(leaf) : asked);
  }

  /** The priority an application runs at after its owner (or an administrator) asked for {@code asked}. */
  default int capped(int asked) {
    return Math.min(asked, maxPriority());
  }
}
