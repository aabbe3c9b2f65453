package dev.bobbin.core.policy.fair;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.List;

/**
 * Inputs and lookups for the cases whose expected shares are the ones Hadoop 3.4's FairScheduler
 * computes for the same queues, cluster and running applications.
 *
 * <p>Queues start as Hadoop's allocation file leaves them: weight 1, no min, FAIR, and a max of
 * {@link #UNBOUNDED}, Hadoop's {@code Resources.unbounded()}, rather than a cluster-sized stand-in.
 */
final class HadoopShareFixtures {
  static final Resource UNBOUNDED = new Resource(Long.MAX_VALUE, Integer.MAX_VALUE);

  private HadoopShareFixtures() {}

  static FairTestQueues hadoopQueue(String path) {
    return FairTestQueues.queue(path).max(UNBOUNDED.memory(), UNBOUNDED.vCores());
  }

  static QueueSpec leaf(String path) {
    return hadoopQueue(path).build();
  }

  static QueueSpec leaf(String path, double weight) {
    return hadoopQueue(path).weight(weight).build();
  }

  static QueueSpec root(FairPolicyKind policy, QueueSpec... children) {
    return hadoopQueue("root").policy(policy).children(children).build();
  }

  static QueueSpec root(QueueSpec... children) {
    return root(FairPolicyKind.FAIR, children);
  }

  /**
   * One application per listed leaf, submitted in the order given: the first is
   * {@code application_1_0001}, submitted at time 1. Each asks for more than any cluster here
   * holds, which does not matter to its share but keeps it busy.
   */
  static List<AppSnapshot> runningIn(String... leafPaths) {
    List<AppSnapshot> apps = new ArrayList<>();
    for (int i = 0; i < leafPaths.length; i++) {
      apps.add(FairTestQueues.hungry(appId(i + 1), leafPaths[i], i + 1));
    }
    return apps;
  }

  static String appId(int submissionOrder) {
    return String.format("application_1_%04d", submissionOrder);
  }

  static Resource steady(FairShares s, String path) {
    return s.queues().get(path).steadyFairShare();
  }

  static Resource fair(FairShares s, String path) {
    return s.queues().get(path).fairShare();
  }

  /** Asserts that the queue's steady and instantaneous shares are both {@code expected}. */
  static void assertSteadyAndFair(FairShares s, String path, Resource expected) {
    assertThat(steady(s, path)).as("steady share of %s", path).isEqualTo(expected);
    assertThat(fair(s, path)).as("instantaneous share of %s", path).isEqualTo(expected);
  }

  /** The share of the application submitted {@code submissionOrder}-th by {@link #runningIn}. */
  static Resource appShare(FairShares s, int submissionOrder) {
    return s.apps().get(appId(submissionOrder));
  }
}
