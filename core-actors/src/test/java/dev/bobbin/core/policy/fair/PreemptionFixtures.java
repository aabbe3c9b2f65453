package dev.bobbin.core.policy.fair;

import dev.bobbin.core.policy.ContainerSnapshot;
import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.NodeView;
import dev.bobbin.protocol.Resource;
import java.time.Duration;
import java.util.List;

/** Small builders for starvation and preemption tests; sizes in GB and vcores unless the name says MB. */
final class PreemptionFixtures {
  private PreemptionFixtures() {}

  static final Resource CLUSTER_MAX = res(1024, 1024);

  static Resource res(long gb, int vCores) {
    return Resource.of(gb * 1024, vCores);
  }

  static Resource mb(long mb, int vCores) {
    return Resource.of(mb, vCores);
  }

  /** A FAIR leaf that may be preempted, with the given fair-share timeout and threshold and no min share. */
  static QueueSpec leaf(String path, Duration fairShareTimeout, double threshold) {
    return leaf(path, true, fairShareTimeout, threshold, Resource.NONE, null);
  }

  static QueueSpec leaf(String path, boolean allowPreemptionFrom, Duration fairShareTimeout, double threshold,
      Resource minShare, Duration minShareTimeout) {
    return new QueueSpec(path, 1.0, minShare, CLUSTER_MAX, FairPolicyKind.FAIR, Integer.MAX_VALUE, -1f,
        allowPreemptionFrom, fairShareTimeout, threshold, minShareTimeout, List.of());
  }

  static QueueSpec withPolicy(QueueSpec q, FairPolicyKind policy) {
    return new QueueSpec(q.path(), q.weight(), q.minShare(), q.maxShare(), policy, q.maxRunningApps(),
        q.maxAmShare(), q.allowPreemptionFrom(), q.fairSharePreemptionTimeout(), q.fairSharePreemptionThreshold(),
        q.minSharePreemptionTimeout(), q.children());
  }

  static QueueSpec parent(String path, boolean allowPreemptionFrom, QueueSpec... children) {
    return new QueueSpec(path, 1.0, Resource.NONE, CLUSTER_MAX, FairPolicyKind.FAIR, Integer.MAX_VALUE, -1f,
        allowPreemptionFrom, null, 0.5, null, List.of(children));
  }

  static QueueSpec root(QueueSpec... children) {
    return parent("root", true, children);
  }

  static AppSnapshot app(String id, String queue, Resource usage, Resource pending, Resource largestAsk) {
    return new AppSnapshot(id, id + "_01", queue, 0, 0L, usage, Resource.NONE, pending, largestAsk);
  }

  static ContainerSnapshot container(String id, String appId, String nodeId, Resource r, boolean am, long time) {
    return new ContainerSnapshot(id, appId, nodeId, r, am, time);
  }

  static NodeView node(String id, Resource capacity, Resource allocated) {
    return new NodeView(id, id + ".host", "/default-rack", capacity, allocated);
  }

  static PreemptionSettings enabled() {
    return PreemptionSettings.enabledWithDefaults();
  }
}
