package dev.bobbin.core.policy;

import dev.bobbin.config.QueuePath;
import dev.bobbin.config.fair.Placement;
import dev.bobbin.protocol.Resource;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * One family of scheduling policies (FIFO, Fair), everything the scheduler asks of it. Built by
 * {@code PolicySets} from the configuration; nothing outside that factory asks which family runs.
 * An implementation keeps the state its family carries between passes (shares, starvation clocks,
 * space held for starved applications) and decides through pure functions that return plans with
 * their reasons; it never sends anything.
 */
public interface PolicySet {
  /**
   * Where a submitted application goes: a leaf queue, or why it is refused (the message the
   * submitter sees). It reads the configuration only, so every RM member places for itself.
   */
  Placement place(String requestedQueue, String user, List<String> groups);

  /** What the leaf queue's entity checks before it admits an application placed there. */
  AdmissionTerms admission(QueuePath leaf);

  /**
   * The terms of a count of every application in the cluster, when the family has one: the capacity
   * policy's scheduler-wide {@code maximum-applications}, which its entity
   * ({@code QueueEntity.CLUSTER}) checks before any leaf admits a submission. Empty for FIFO and Fair.
   */
  default Optional<AdmissionTerms> clusterAdmission() {
    return Optional.empty();
  }

  /** Who may submit to and administer each queue, as the configuration says. */
  QueueAcls queueAcls();

  /**
   * The container sizes a leaf grants: the scheduler's unless the family narrows them (the capacity
   * policy's per-queue {@code maximum-allocation-mb} and {@code -vcores}). An AM hears the maximum
   * when it registers, and its asks are rounded and capped with them.
   */
  default AllocationLimits allocationLimits(AllocationLimits scheduler, QueuePath leaf) {
    return scheduler;
  }

  /** The AM container an application in {@code leaf} gets for the AM resource it asked (already rounded). */
  default Resource amContainer(Resource asked, QueuePath leaf) {
    return asked;
  }

  /**
   * Whether a node with {@code free} space can take a container of {@code size}: every resource
   * fits, unless the family counts memory alone (the capacity policy's default calculator).
   */
  default boolean fitsOnNode(Resource size, Resource free) {
    return free.fits(size);
  }

  /** The cap on application priorities and each leaf's default; YARN's FIFO and Fair keep every one at 0. */
  default ApplicationPriorities priorities() {
    return ApplicationPriorities.FIXED_AT_ZERO;
  }

  /**
   * The scheduler follows an application in {@code queue} from now on; a queue that does not exist yet is made.
   * Told again with another queue, the application has moved there: what the policy keeps of it
   * (a capacity activation, a fair reservation) stays with it.
   */
  void follow(String appId, QueuePath queue);

  /**
   * The leaf an application may be moved to when asked for {@code queue}, or why not (no such
   * queue, or not a leaf): {@link Placement.Placed} with its full path and nothing to create.
   */
  Placement moveTarget(String queue);

  /** The application has ended. */
  void forget(String appId);

  /**
   * Places waiting asks on the usable nodes.
   *
   * @param limit the most placements to decide: the plan is then the first {@code limit} of the
   *     plan without a limit
   */
  AllocationPlan assign(ClusterView cluster, int limit);

  /** One assignment of the last plan was carried out. */
  void placed(Assignment assignment);

  /** The periodic update: shares, starvation, and what to take back from whom. */
  PolicyUpdate update(ClusterView cluster, long now);

  /** How often {@link #update} runs; empty when the family has nothing to update. */
  Optional<Duration> updateInterval();

  /** How long a container marked for preemption is left to its AM before it is killed. */
  Duration waitBeforeKill();

  /**
   * Whether the policy says itself when a marked container is killed ({@link PolicyUpdate#kills}),
   * as the capacity policy's rounds do, rather than the scheduler killing it once
   * {@link #waitBeforeKill} has passed. Its AM is still told the earliest kill time.
   */
  default boolean decidesKills() {
    return false;
  }

  /** Swaps in a new configuration, or refuses it and keeps the running one. */
  Reconfiguration reconfigure(PolicyConfig next);

  /**
   * Why the policy keeps an application waiting, for its report's diagnostics (the capacity policy's
   * AM resource limit, in Hadoop's words); empty when nothing holds it back.
   */
  default Optional<String> diagnostics(String appId) {
    return Optional.empty();
  }

  /** Its state for {@code GET /ws/v1/cluster/scheduler}. */
  SchedulerView view(ClusterView cluster);

  /** The starvation clocks a previous scheduler journalled, so that running timeouts go on. */
  void restoreClocks(StarvationClocks clocks);
}
