package dev.bobbin.config.fair;

import com.typesafe.config.Config;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The Fair Scheduler's queue configuration: Hadoop's allocation file, read from
 * {@code fair-scheduler.xml} ({@link AllocationFileParser}) or from the HOCON section
 * {@code bobbin.scheduler.fair} ({@link #fromHocon}). Both give equal values for the same tree.
 *
 * @param root the root queue, with every configured queue below it
 * @param userMaxApps per-user running application limits; other users get
 *     {@link FairDefaults#userMaxAppsDefault()}
 * @param placementPolicy the configured policy, or null when none is (then
 *     {@link #placementPolicyOr} builds Hadoop's default)
 */
public record FairSchedulerConfig(
    FairQueueConfig root, FairDefaults defaults, Map<String, Integer> userMaxApps, PlacementPolicy placementPolicy) {

  public FairSchedulerConfig {
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(defaults, "defaults");
    if (!root.isRoot()) throw new IllegalArgumentException("the root queue must be named root, was " + root.path());
    userMaxApps = Map.copyOf(userMaxApps);
  }

  /** Only the root queue, Hadoop's defaults, no placement policy: what an empty allocation file gives. */
  public static FairSchedulerConfig minimal() {
    FairQueueConfig root =
        new FairQueueConfig(
            QueueNames.ROOT, QueueType.PARENT, FairQueueConfig.DEFAULT_WEIGHT, null, null, null, null, null, null,
            null, null, null, null, true, null, null, List.of());
    return new FairSchedulerConfig(root, FairDefaults.HADOOP, Map.of(), null);
  }

  /** The queues, defaults, users and placement rules of the {@code bobbin.scheduler.fair} section. */
  public static FairSchedulerConfig fromHocon(Config root) {
    return HoconFairReader.read(root);
  }

  /**
   * The configuration the settings point at: the allocation file named by
   * {@code bobbin.scheduler.fair.allocation-file}, or else the HOCON section itself.
   */
  public static FairSchedulerConfig load(Config root) {
    FairGlobalSettings global = FairGlobalSettings.from(root);
    if (global.allocationFile() == null) return fromHocon(root);
    HoconFairReader.requireNoQueues(root);
    return AllocationFileParser.parse(global.allocationFile());
  }

  /** Every configured queue by full path, parents before their children. */
  public Map<String, FairQueueConfig> queues() {
    Map<String, FairQueueConfig> out = new LinkedHashMap<>();
    collect(root, out);
    return out;
  }

  private static void collect(FairQueueConfig q, Map<String, FairQueueConfig> out) {
    out.put(q.path(), q);
    q.children().forEach(c -> collect(c, out));
  }

  /** A configured queue by "a.b" or "root.a.b". */
  public Optional<FairQueueConfig> queue(String name) {
    return Optional.ofNullable(queues().get(QueueNames.assureRoot(name)));
  }

  public int maxRunningAppsForUser(String user) {
    return userMaxApps.getOrDefault(user, defaults.userMaxAppsDefault());
  }

  /** Every configured queue's effective settings, parents before their children. */
  public Map<String, EffectiveQueue> effectiveQueues() {
    return EffectiveValues.of(root, defaults);
  }

  /** The effective settings of a queue; one not configured is treated as a leaf created at run time. */
  public EffectiveQueue effective(String queue) {
    return effective(queue, QueueType.LEAF);
  }

  /**
   * The effective settings of a queue by "a.b" or "root.a.b". A queue that is not configured is
   * resolved as placement would create it: as {@code typeIfCreated}, under dynamic parent queues
   * down from its nearest configured ancestor.
   *
   * @throws IllegalArgumentException if the name is invalid or a configured leaf is on the way
   */
  public EffectiveQueue effective(String queue, QueueType typeIfCreated) {
    String path = QueueNames.assureRoot(queue);
    Map<String, EffectiveQueue> all = effectiveQueues();
    EffectiveQueue known = all.get(path);
    if (known != null) return known;
    String problem = QueueNames.problemWithPath(path);
    if (problem != null) throw new IllegalArgumentException(problem);
    List<String> missing = new ArrayList<>();
    String p = path;
    while (!all.containsKey(p)) {
      missing.add(0, p);
      p = QueueNames.parentOf(p);
    }
    EffectiveQueue parent = all.get(p);
    if (parent.isLeaf()) throw new IllegalArgumentException(p + " is a leaf queue; no queue can be created under it");
    for (int i = 0; i < missing.size(); i++) {
      QueueType type = i == missing.size() - 1 ? typeIfCreated : QueueType.PARENT;
      parent = EffectiveValues.created(missing.get(i), type, parent, defaults);
    }
    return parent;
  }

  /** The configured placement policy, or Hadoop's default built from the global switches. */
  public PlacementPolicy placementPolicyOr(FairGlobalSettings global) {
    if (placementPolicy != null) return placementPolicy;
    return PlacementPolicy.hadoopDefault(global.userAsDefaultQueue(), global.allowUndeclaredPools());
  }
}
