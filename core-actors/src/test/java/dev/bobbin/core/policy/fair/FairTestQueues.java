package dev.bobbin.core.policy.fair;

import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.protocol.Resource;
import java.util.List;

/** Builds queue trees for the Fair policy tests: FAIR, weight 1, no min, no max unless set. */
final class FairTestQueues {
  /** What an unlimited queue carries as its max share, as Hadoop holds it. */
  static final Resource UNLIMITED = new Resource(Long.MAX_VALUE, Integer.MAX_VALUE);

  private String path;
  private double weight = 1.0;
  private Resource min = Resource.NONE;
  private Resource max = UNLIMITED;
  private FairPolicyKind policy = FairPolicyKind.FAIR;
  private int maxRunningApps = Integer.MAX_VALUE;
  private float maxAmShare = -1f;
  private List<QueueSpec> children = List.of();

  static FairTestQueues queue(String path) {
    FairTestQueues q = new FairTestQueues();
    q.path = path;
    return q;
  }

  FairTestQueues weight(double w) {
    weight = w;
    return this;
  }

  FairTestQueues min(long memory, int vCores) {
    min = new Resource(memory, vCores);
    return this;
  }

  FairTestQueues max(long memory, int vCores) {
    max = new Resource(memory, vCores);
    return this;
  }

  FairTestQueues policy(FairPolicyKind p) {
    policy = p;
    return this;
  }

  FairTestQueues maxRunningApps(int n) {
    maxRunningApps = n;
    return this;
  }

  FairTestQueues maxAmShare(float share) {
    maxAmShare = share;
    return this;
  }

  FairTestQueues children(QueueSpec... kids) {
    children = List.of(kids);
    return this;
  }

  QueueSpec build() {
    return new QueueSpec(path, weight, min, max, policy, maxRunningApps, maxAmShare, true, null, 0.5, null, children);
  }

  static QueueSpec leaf(String path, double weight) {
    return queue(path).weight(weight).build();
  }

  static AppSnapshot app(String appId, String queuePath, long submitTime, Resource usage, Resource pending) {
    return new AppSnapshot(appId, appId.replace("application", "appattempt") + "_000001", queuePath, 0, submitTime,
        usage, Resource.NONE, pending, pending);
  }

  /** An application that asks for plenty and uses nothing yet. */
  static AppSnapshot hungry(String appId, String queuePath, long submitTime) {
    return app(appId, queuePath, submitTime, Resource.NONE, new Resource(1L << 30, 1 << 20));
  }

  static Resource mb(long memory, int vCores) {
    return new Resource(memory, vCores);
  }

  private FairTestQueues() {}
}
