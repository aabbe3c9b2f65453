package dev.bobbin.core.policy.fair;

import dev.bobbin.protocol.Resource;
import java.time.Duration;
import java.util.List;

/**
 * One queue of the Fair policy's tree, with every inherited value already resolved and every
 * percentage already turned into an absolute resource against the current cluster.
 *
 * @param path full dotted path, {@code root} for the root, {@code root.a.b} below it
 * @param maxShare as configured, not clipped to the cluster, as Hadoop holds it:
 *     {@link Long#MAX_VALUE} MB and {@link Integer#MAX_VALUE} vcores when unlimited; the root's is
 *     the cluster
 * @param fairSharePreemptionTimeout {@code null} means this queue's applications never starve
 *     for fair share (Hadoop's Long.MAX_VALUE default)
 * @param minSharePreemptionTimeout {@code null} means the queue never starves for min share
 * @param maxRunningApps {@code Integer.MAX_VALUE} when unlimited
 * @param maxAmShare fraction of the queue's fair share AMs may use; -1 disables the check
 */
public record QueueSpec(
    String path,
    double weight,
    Resource minShare,
    Resource maxShare,
    FairPolicyKind policy,
    int maxRunningApps,
    float maxAmShare,
    boolean allowPreemptionFrom,
    Duration fairSharePreemptionTimeout,
    double fairSharePreemptionThreshold,
    Duration minSharePreemptionTimeout,
    List<QueueSpec> children) {
  public QueueSpec {
    children = List.copyOf(children);
  }

  public boolean isLeaf() {
    return children.isEmpty();
  }
}
