package dev.bobbin.compat.fair;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.AllocationConfigurationException;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSSchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairSchedulerConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.Schedulable;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.SchedulingPolicy;
import org.apache.hadoop.yarn.util.resource.Resources;

/**
 * The shares Hadoop 3.4's FairScheduler gives a {@link ShareCase}, computed by Hadoop's own
 * scheduling policies ({@code FairSharePolicy}, {@code DominantResourceFairnessPolicy},
 * {@code FifoPolicy}, all of which run {@code ComputeFairShares}) on Hadoop's own parsing of the
 * queues' weights and resources.
 *
 * <p>What is mirrored here rather than run is only the walk down the tree, which in Hadoop lives in
 * the queue classes: the root holds the cluster; each parent's policy splits its steady share among
 * all its children and its instantaneous share among its active ones; each leaf's policy splits its
 * instantaneous share among its runnable applications, each of weight 1 with no min and no max.
 * Hadoop's steady-share entry point wants its own queue objects, so steady shares are computed with
 * the instantaneous entry point on every child, which runs the same code; and inactive children are
 * left out of the instantaneous split, which is what {@code ComputeFairShares} does with them (they
 * get 0 and take no part in the search).
 */
final class HadoopFairShares {
  private HadoopFairShares() {}

  /** Steady and instantaneous shares per queue path, and shares per application id. */
  record Shares(Map<String, Amount> steady, Map<String, Amount> fair, Map<String, Amount> apps) {}

  static Shares compute(ShareCase c) {
    Resource cluster = Resource.newInstance(c.clusterMemory(), c.clusterVcores());
    Queue root = queue(c.root(), "root", cluster);
    for (ShareCase.App a : c.apps()) root.find(a.queuePath()).apps.add(new App(a.id(), a.startTime()));
    root.steady.target = Resources.clone(cluster);
    root.fair.target = Resources.clone(cluster);
    root.shareSteady();
    root.shareInstantaneous();
    Shares out = new Shares(new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>());
    root.collect(out);
    return out;
  }

  private static Queue queue(QueueCase q, String path, Resource cluster) {
    try {
      Resource min = q.minResources() == null ? Resources.none()
          : FairSchedulerConfiguration.parseResourceConfigValue(q.minResources(), 0L).getResource();
      Resource max = q.maxResources() == null ? Resources.unbounded()
          : FairSchedulerConfiguration.parseResourceConfigValue(q.maxResources()).getResource(cluster);
      Queue out = new Queue(path, (float) Double.parseDouble(q.weight()), min,
          Resources.componentwiseMax(max, min), SchedulingPolicy.parse(q.policy()));
      for (QueueCase child : q.children()) out.children.add(queue(child, path + "." + child.name(), cluster));
      return out;
    } catch (AllocationConfigurationException e) {
      throw new IllegalArgumentException(path + ": " + e.getMessage(), e);
    }
  }

  private static final class Queue {
    final String path;
    final SchedulingPolicy policy;
    final List<Queue> children = new ArrayList<>();
    final List<App> apps = new ArrayList<>();
    final Claimant steady;
    final Claimant fair;

    Queue(String path, float weight, Resource min, Resource max, SchedulingPolicy policy) {
      this.path = path;
      this.policy = policy;
      this.steady = new Claimant(path, weight, min, max, 0);
      this.fair = new Claimant(path, weight, min, max, 0);
    }

    boolean active() {
      return !apps.isEmpty() || children.stream().anyMatch(Queue::active);
    }

    Queue find(String p) {
      if (path.equals(p)) return this;
      for (Queue c : children) {
        if (p.equals(c.path) || p.startsWith(c.path + ".")) return c.find(p);
      }
      throw new IllegalArgumentException("no queue " + p);
    }

    void shareSteady() {
      if (children.isEmpty()) return;
      policy.computeShares(children.stream().map(c -> c.steady).toList(), steady.target);
      children.forEach(Queue::shareSteady);
    }

    void shareInstantaneous() {
      if (children.isEmpty()) {
        policy.computeShares(apps.stream().map(a -> a.claimant).toList(), fair.target);
        return;
      }
      policy.computeShares(children.stream().filter(Queue::active).map(c -> c.fair).toList(), fair.target);
      children.forEach(Queue::shareInstantaneous);
    }

    void collect(Shares out) {
      out.steady().put(path, Amount.of(steady.target));
      out.fair().put(path, Amount.of(fair.target));
      apps.forEach(a -> out.apps().put(a.id, Amount.of(a.claimant.target)));
      children.forEach(c -> c.collect(out));
    }
  }

  private record App(String id, Claimant claimant) {
    App(String id, long startTime) {
      this(id, new Claimant(id, 1.0f, Resources.none(), Resources.unbounded(), startTime));
    }
  }

  /** A queue or application as Hadoop's policies see it; {@code target} is the share they write. */
  private static final class Claimant implements Schedulable {
    final String name;
    final float weight;
    final Resource min;
    final Resource max;
    final long startTime;
    Resource target = Resource.newInstance(0, 0);

    Claimant(String name, float weight, Resource min, Resource max, long startTime) {
      this.name = name;
      this.weight = weight;
      this.min = min;
      this.max = max;
      this.startTime = startTime;
    }

    @Override public String getName() { return name; }
    @Override public Resource getDemand() { return Resources.none(); }
    @Override public Resource getResourceUsage() { return Resources.none(); }
    @Override public Resource getMinShare() { return min; }
    @Override public Resource getMaxShare() { return max; }
    @Override public float getWeight() { return weight; }
    @Override public long getStartTime() { return startTime; }
    @Override public Priority getPriority() { return Priority.newInstance(1); }
    @Override public void updateDemand() {}
    @Override public Resource assignContainer(FSSchedulerNode node) { return Resources.none(); }
    @Override public Resource getFairShare() { return target; }
    @Override public void setFairShare(Resource share) { target = share; }
    @Override public boolean isPreemptable() { return true; }
  }
}
