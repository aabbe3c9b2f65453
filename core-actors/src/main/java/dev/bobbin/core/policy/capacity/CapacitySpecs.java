package dev.bobbin.core.policy.capacity;

import dev.bobbin.config.SettingsException;
import dev.bobbin.config.capacity.AppOrderingPolicy;
import dev.bobbin.config.capacity.CapacityQueue;
import dev.bobbin.config.capacity.CapacitySchedulerConfig;
import dev.bobbin.config.capacity.QueueMapping;
import dev.bobbin.config.capacity.QueueOrderingPolicy;
import dev.bobbin.config.capacity.QueueState;
import dev.bobbin.config.capacity.ResourceCalculator;
import dev.bobbin.config.capacity.SchedulerWideSettings;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The capacity mathematics' inputs made from an imported configuration: the queue tree as
 * {@link CapacityQueueSpec}s and the scheduler-wide {@link CapacitySettings}, plus what only the
 * assignment reads (which fair leaves weigh applications by their demand, the cap on application
 * priorities). The importer has already applied Hadoop's defaults and inheritance, so each value
 * maps across as it is.
 *
 * <p>Refused here, naming the key, is what the configuration accepts and the policy cannot honour
 * yet: proportional preemption switched on, and placement by application name.
 *
 * @param sizeBasedWeight the fair leaves with {@code ordering-policy.fair.enable-size-based-weight}
 * @param maxApplicationPriority {@code yarn.cluster.max-application-priority}
 */
public record CapacitySpecs(CapacityQueueSpec root, CapacitySettings settings, Set<String> sizeBasedWeight,
    int maxApplicationPriority) {
  static final String PREFIX = "yarn.scheduler.capacity.";

  public CapacitySpecs {
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(settings, "settings");
    sizeBasedWeight = Set.copyOf(sizeBasedWeight);
  }

  /** @throws SettingsException naming the key of what the policy refuses */
  public static CapacitySpecs of(CapacitySchedulerConfig config) {
    refuseWhatIsNotSupported(config);
    SchedulerWideSettings w = config.schedulerWide();
    ResourceMath math = w.resourceCalculator() == ResourceCalculator.DOMINANT ? ResourceMath.DOMINANT
        : ResourceMath.DEFAULT;
    CapacitySettings settings = new CapacitySettings(math,
        new Resource(w.minimumAllocationMb(), w.minimumAllocationVcores()),
        new Resource(w.maximumAllocationMb(), w.maximumAllocationVcores()),
        w.maximumApplications(), -1);
    Set<String> sized = new LinkedHashSet<>();
    CapacityQueueSpec root = spec(config.root(), sized);
    try {
      CapacityTree.compute(root, Resource.NONE, settings);
    } catch (IllegalArgumentException e) {
      throw new SettingsException(PREFIX + "root.queues", e.getMessage());
    }
    return new CapacitySpecs(root, settings, sized, w.maxApplicationPriority());
  }

  private static CapacityQueueSpec spec(CapacityQueue q, Set<String> sizeBasedWeight) {
    List<CapacityQueueSpec> children = new ArrayList<>();
    for (CapacityQueue c : q.children()) children.add(spec(c, sizeBasedWeight));
    String path = q.path().full();
    if (q.isLeaf() && q.orderingPolicy() == AppOrderingPolicy.FAIR && q.sizeBasedWeight()) sizeBasedWeight.add(path);
    try {
      return CapacityQueueSpec.builder(path)
          .capacity(capacity(q.capacity()))
          .maximumCapacity(capacity(q.maximumCapacity()))
          .state(q.state() == QueueState.STOPPED ? CapacityQueueState.STOPPED : CapacityQueueState.RUNNING)
          .maximumAllocation(new Resource(q.maximumAllocationMb(), q.maximumAllocationVcores()))
          .orderingPolicy(ordering(q))
          .priority(q.priority())
          .minimumUserLimitPercent(q.minimumUserLimitPercent())
          .userLimitFactor(q.userLimitFactor())
          .userWeights(q.userWeights())
          .maximumApplications(q.maximumApplications().isPresent() ? q.maximumApplications().getAsInt() : null)
          .maximumAmResourcePercent(q.maximumAmResourcePercent())
          .disablePreemption(q.preemptionDisabled())
          .defaultApplicationPriority(q.defaultApplicationPriority())
          .children(children)
          .build();
    } catch (IllegalArgumentException e) {
      throw new SettingsException(PREFIX + path + (q.isLeaf() ? ".capacity" : ".queues"), e.getMessage());
    }
  }

  private static QueueCapacity capacity(dev.bobbin.config.capacity.QueueCapacity c) {
    if (c instanceof dev.bobbin.config.capacity.QueueCapacity.Percentage p) return QueueCapacity.percent(p.percent());
    var a = (dev.bobbin.config.capacity.QueueCapacity.Absolute) c;
    return QueueCapacity.absolute(new Resource(a.memoryMb(), a.vcores()));
  }

  private static OrderingPolicy ordering(CapacityQueue q) {
    if (q.isLeaf()) return q.orderingPolicy() == AppOrderingPolicy.FAIR ? OrderingPolicy.FAIR : OrderingPolicy.FIFO;
    return q.queueOrderingPolicy() == QueueOrderingPolicy.PRIORITY_UTILIZATION
        ? OrderingPolicy.PRIORITY_UTILIZATION : OrderingPolicy.UTILIZATION;
  }

  private static void refuseWhatIsNotSupported(CapacitySchedulerConfig config) {
    for (QueueMapping m : config.queueMappings()) {
      if (m.type() == QueueMapping.Type.APPLICATION || m.queueParts().contains("%application")) {
        throw new SettingsException(m.type() == QueueMapping.Type.APPLICATION
            ? "yarn.scheduler.queue-placement-rules.app-name" : PREFIX + "queue-mappings",
            "queue mapping '" + m + "': placement by application name is not supported yet");
      }
    }
  }
}
