package dev.bobbin.core.policy;

import dev.bobbin.config.QueuePath;
import dev.bobbin.config.SchedulerSettings;
import dev.bobbin.config.fair.Placement;
import dev.bobbin.protocol.Resource;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * FIFO within each of the queues {@code bobbin.scheduler.queues} names ({@link FifoPolicy}), with
 * ApplicationMasters held to {@code bobbin.scheduler.max-am-share} of the cluster. Nothing to update
 * between passes and nothing to preempt.
 */
public final class FifoPolicySet implements PolicySet {
  private final SchedulerSettings settings;
  private final FifoPolicy policy = new FifoPolicy();

  private FifoPolicySet(SchedulerSettings settings) {
    this.settings = settings;
  }

  public static PolicySet create(SchedulerSettings settings) {
    return new FifoPolicySet(settings);
  }

  @Override
  public Placement place(String requestedQueue, String user, List<String> groups) {
    QueuePath q = QueuePath.requested(requestedQueue);
    if (settings.queues().contains(q.relative())) return new Placement.Placed(q.full(), List.of(), "fifo");
    return new Placement.Rejected("Queue " + requestedQueue + " does not exist; known queues: " + settings.queues());
  }

  /** {@inheritDoc} Every FIFO queue is a leaf. */
  @Override
  public Placement moveTarget(String queue) {
    QueuePath q = QueuePath.requested(queue);
    if (settings.queues().contains(q.relative())) return new Placement.Placed(q.full(), List.of(), "move");
    return new Placement.Rejected("The specified Queue: " + queue + " doesn't exist; known queues: "
        + settings.queues());
  }

  /** {@inheritDoc} Every queue takes submissions, with no limit on how many it holds. */
  @Override
  public AdmissionTerms admission(QueuePath leaf) {
    return AdmissionTerms.OPEN;
  }

  /** {@inheritDoc} The FIFO queues set no ACLs: everyone may submit to each, only administrators administer. */
  @Override
  public QueueAcls queueAcls() {
    return QueueAcls.SUBMIT_ONLY;
  }

  @Override
  public void follow(String appId, QueuePath queue) {}

  @Override
  public void forget(String appId) {}

  @Override
  public AllocationPlan assign(ClusterView cluster, int limit) {
    return policy.assign(settings.queues(), cluster.usableNodes(), cluster.waiting(), amHeadroom(cluster), limit);
  }

  /** What more AMs may take under bobbin.scheduler.max-am-share; the first AM always fits, as in YARN. */
  private Resource amHeadroom(ClusterView cluster) {
    Resource amUsed = cluster.amUsed();
    if (amUsed.memory() <= 0 && amUsed.vCores() <= 0) return Resource.of(Long.MAX_VALUE, Integer.MAX_VALUE);
    double share = settings.maxAmShare();
    Resource capacity = cluster.capacity();
    Resource limit = Resource.of((long) (capacity.memory() * share), (int) (capacity.vCores() * share));
    return limit.minus(amUsed);
  }

  @Override
  public void placed(Assignment assignment) {}

  @Override
  public PolicyUpdate update(ClusterView cluster, long now) {
    return PolicyUpdate.NONE;
  }

  @Override
  public Optional<Duration> updateInterval() {
    return Optional.empty();
  }

  @Override
  public Duration waitBeforeKill() {
    return Duration.ZERO;
  }

  @Override
  public Reconfiguration reconfigure(PolicyConfig next) {
    return new Reconfiguration.Rejected(List.of("Queue refresh needs the fair policy; this scheduler runs fifo"));
  }

  @Override
  public SchedulerView view(ClusterView cluster) {
    return new FifoView(cluster.capacity(), cluster.used(), cluster.usableNodes().size(), cluster.liveContainers(),
        settings.minimumAllocationMb(), settings.maximumAllocationMb(), settings.queues());
  }

  @Override
  public void restoreClocks(StarvationClocks clocks) {}
}
