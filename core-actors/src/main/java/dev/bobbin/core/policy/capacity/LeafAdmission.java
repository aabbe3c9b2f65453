package dev.bobbin.core.policy.capacity;

import dev.bobbin.core.policy.AdmissionTerms;
import dev.bobbin.core.policy.capacity.QueueCapacity.Absolute;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.List;

/**
 * What a leaf's entity admits: nothing while the leaf (or a queue above it) is STOPPED, else up to
 * {@code maximum-applications} applications, and per user the share of them
 * {@link ApplicationLimits#maximumApplicationsPerUser} gives. Every member computes these from the
 * configuration alone, without the cluster's size, so a queue given in absolute resources that sets
 * no {@code maximum-applications} may hold the scheduler-wide maximum (in Hadoop its share follows
 * the cluster's size).
 */
final class LeafAdmission {
  private final CapacityTree tree;

  LeafAdmission(CapacitySpecs specs) {
    this.tree = CapacityTree.compute(withSystemMaximum(specs.root(), specs.settings().maximumSystemApplications()),
        Resource.NONE, specs.settings());
  }

  AdmissionTerms terms(String leaf) {
    boolean stopped = tree.queue(leaf).state() == CapacityQueueState.STOPPED;
    return new AdmissionTerms(stopped, maximumApplications(leaf), maximumApplicationsPerUser(leaf));
  }

  int maximumApplications(String leaf) {
    return ApplicationLimits.maximumApplications(tree, leaf);
  }

  int maximumApplicationsPerUser(String leaf) {
    return ApplicationLimits.maximumApplicationsPerUser(tree, leaf);
  }

  private static CapacityQueueSpec withSystemMaximum(CapacityQueueSpec q, int system) {
    if (q.isLeaf()) {
      return q.maximumApplications() == null && q.capacity() instanceof Absolute
          ? q.toBuilder().maximumApplications(system).build() : q;
    }
    List<CapacityQueueSpec> children = new ArrayList<>();
    for (CapacityQueueSpec c : q.children()) children.add(withSystemMaximum(c, system));
    return q.toBuilder().children(children).build();
  }
}
