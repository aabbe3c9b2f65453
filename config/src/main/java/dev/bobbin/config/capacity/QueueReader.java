package dev.bobbin.config.capacity;

import dev.bobbin.config.QueuePath;
import dev.bobbin.config.SettingsException;
import dev.bobbin.config.security.AccessControlList;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Reads the queue tree from {@code yarn.scheduler.capacity.<queue-path>.queues} down from root,
 * each queue's settings, and what a queue takes from its parent when it does not set it: state,
 * maximum allocation, the parent queues' ordering policy, disable_preemption and user weights.
 */
final class QueueReader {
  /** Scheduler-wide values that queues fall back to. */
  record Defaults(
      float minimumUserLimitPercent,
      float userLimitFactor,
      int globalQueueMaxApplications,
      SchedulerWideSettings wide,
      boolean preemptionEnabled) {}

  /** What a queue takes from its parent. */
  private record Inherited(
      QueueState state,
      long maximumAllocationMb,
      int maximumAllocationVcores,
      QueueOrderingPolicy queueOrderingPolicy,
      boolean preemptionDisabled,
      Map<String, Float> userWeights) {}

  private final HadoopProperties p;
  private final Defaults defaults;
  private final List<ConfigWarning> warnings;

  QueueReader(HadoopProperties p, Defaults defaults, List<ConfigWarning> warnings) {
    this.p = p;
    this.defaults = defaults;
    this.warnings = warnings;
  }

  CapacityQueue root() {
    return queue(QueuePath.ROOT, null);
  }

  private CapacityQueue queue(QueuePath path, Inherited up) {
    List<String> childNames = childNames(path);
    boolean leaf = childNames.isEmpty();
    if (leaf && path.isRoot()) {
      String key = p.where(QueueKey.of(path.full(), QueueKey.QUEUES));
      throw new SettingsException(key, "root has no queues; list at least one, e.g. default (as Hadoop, which refuses this too)");
    }
    for (QueueKey k : QueueKey.values()) {
      boolean applies = k.applies == QueueKey.Applies.ALL || (k.applies == QueueKey.Applies.LEAF) == leaf;
      if (!applies && p.get(k.of(path.full())) != null) {
        warnings.add(new ConfigWarning(
            p.where(k.of(path.full())),
            "applies to " + (leaf ? "parent" : "leaf") + " queues only; " + path + " is a " + (leaf ? "leaf" : "parent")
                + " queue, so it has no effect (as in Hadoop)"));
      }
    }
    refuseQueueCreation(path);
    QueueState state = state(path, up);
    long[] maxAllocation = maximumAllocation(path, up);
    QueueOrderingPolicy queueOrdering = up == null ? QueueOrderingPolicy.UTILIZATION : up.queueOrderingPolicy();
    AppOrderingPolicy appOrdering = AppOrderingPolicy.FIFO;
    String ordering = get(path, QueueKey.ORDERING_POLICY);
    if (ordering != null) {
      String key = where(path, QueueKey.ORDERING_POLICY);
      if (leaf) appOrdering = AppOrderingPolicy.parse(key, ordering);
      else queueOrdering = QueueOrderingPolicy.parse(key, ordering);
    }
    boolean sizeBased = leaf && value(path, QueueKey.SIZE_BASED_WEIGHT, false, Numbers::bool);
    if (sizeBased && appOrdering != AppOrderingPolicy.FAIR) {
      warnings.add(new ConfigWarning(
          where(path, QueueKey.SIZE_BASED_WEIGHT), "applies to the fair ordering policy only; " + path + " orders fifo, so it has no effect"));
    }
    boolean preemptionDisabled = preemptionDisabled(path, up);
    Map<String, Float> weights = new HashMap<>(up == null ? Map.of() : up.userWeights());
    weights.putAll(ownUserWeights(path));
    float userLimit = leaf ? value(path, QueueKey.MINIMUM_USER_LIMIT_PERCENT, defaults.minimumUserLimitPercent(), QueueReader::userLimitPercent)
        : defaults.minimumUserLimitPercent();
    if (leaf) checkUserWeights(path, weights, userLimit);
    Inherited down = new Inherited(state, maxAllocation[0], (int) maxAllocation[1], queueOrdering, preemptionDisabled, weights);
    List<CapacityQueue> children = new ArrayList<>();
    for (String name : childNames) children.add(queue(path.child(name), down));
    return new CapacityQueue(
        path,
        capacity(path),
        maximumCapacity(path),
        state,
        maxAllocation[0],
        (int) maxAllocation[1],
        appOrdering,
        sizeBased,
        queueOrdering,
        value(path, QueueKey.PRIORITY, 0, Numbers::integer),
        userLimit,
        leaf ? value(path, QueueKey.USER_LIMIT_FACTOR, defaults.userLimitFactor(), QueueReader::userLimitFactor) : defaults.userLimitFactor(),
        weights,
        leaf ? maximumApplications(path) : OptionalInt.empty(),
        leaf ? value(path, QueueKey.MAXIMUM_AM_RESOURCE_PERCENT, defaults.wide().maximumAmResourcePercent(), Numbers::fraction)
            : defaults.wide().maximumAmResourcePercent(),
        acl(path, QueueKey.ACL_SUBMIT_APPLICATIONS),
        acl(path, QueueKey.ACL_ADMINISTER_QUEUE),
        preemptionDisabled,
        leaf ? value(path, QueueKey.DEFAULT_APPLICATION_PRIORITY, 0, Numbers::integer) : 0,
        !leaf && value(path, QueueKey.ALLOW_ZERO_CAPACITY_SUM, false, Numbers::bool),
        children);
  }

  /** Queues made at run time change what the tree is; a switch left off is honoured by Bobbin too. */
  private void refuseQueueCreation(QueuePath path) {
    for (String suffix : List.of("auto-create-child-queue.enabled", "auto-queue-creation-v2.enabled")) {
      String key = QueueKey.of(path.full(), suffix);
      String text = p.get(key);
      if (text != null && Numbers.bool(p.where(key), text)) {
        throw new SettingsException(
            p.where(key), "queues created at run time are not supported yet; declare " + path + "'s queues in the configuration");
      }
    }
  }

  private List<String> childNames(QueuePath path) {
    String key = QueueKey.of(path.full(), QueueKey.QUEUES);
    String list = p.get(key);
    if (list == null) return List.of();
    Set<String> names = new LinkedHashSet<>();
    for (String raw : list.split(",")) {
      String name = raw.trim();
      if (name.isEmpty()) continue;
      if (name.contains(".") || name.chars().anyMatch(Character::isWhitespace)) {
        throw new SettingsException(p.where(key), "'" + name + "' is not a queue name: it must not contain '.' or white space");
      }
      if (!names.add(name)) throw new SettingsException(p.where(key), "queue " + name + " is listed twice");
    }
    return List.copyOf(names);
  }

  private QueueCapacity capacity(QueuePath path) {
    String text = get(path, QueueKey.CAPACITY);
    if (path.isRoot()) return rootCapacity(path, QueueKey.CAPACITY, text);
    return text == null ? new QueueCapacity.Percentage(0f) : CapacityText.capacity(where(path, QueueKey.CAPACITY), text);
  }

  private QueueCapacity maximumCapacity(QueuePath path) {
    String text = get(path, QueueKey.MAXIMUM_CAPACITY);
    if (path.isRoot()) return rootCapacity(path, QueueKey.MAXIMUM_CAPACITY, text);
    if (text == null) return QueueCapacity.UNLIMITED;
    return CapacityText.maximum(where(path, QueueKey.MAXIMUM_CAPACITY), text);
  }

  /** Root always has the whole cluster; Hadoop ignores a value there, which hides a mistake. */
  private QueueCapacity rootCapacity(QueuePath path, QueueKey key, String text) {
    if (text != null) {
      QueueCapacity given = key == QueueKey.CAPACITY ? CapacityText.capacity(where(path, key), text) : CapacityText.maximum(where(path, key), text);
      if (!given.equals(QueueCapacity.UNLIMITED)) {
        throw new SettingsException(where(path, key), "root always has the whole cluster: leave it out or set it to 100, was " + text.trim());
      }
    }
    return QueueCapacity.UNLIMITED;
  }

  private QueueState state(QueuePath path, Inherited up) {
    String text = get(path, QueueKey.STATE);
    QueueState own = null;
    if (text != null) {
      String key = where(path, QueueKey.STATE);
      try {
        own = QueueState.valueOf(text.trim().toUpperCase(java.util.Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new SettingsException(key, "must be RUNNING or STOPPED, was '" + text + "'");
      }
      if (own == QueueState.RUNNING && up != null && up.state() != QueueState.RUNNING) {
        throw new SettingsException(key, path + " cannot be RUNNING under " + path.parent() + ", which is STOPPED");
      }
    }
    if (own != null) return own;
    return up == null ? QueueState.RUNNING : up.state();
  }

  private long[] maximumAllocation(QueuePath path, Inherited up) {
    SchedulerWideSettings w = defaults.wide();
    long mb = up == null ? w.maximumAllocationMb() : up.maximumAllocationMb();
    int vcores = up == null ? w.maximumAllocationVcores() : up.maximumAllocationVcores();
    String resource = get(path, QueueKey.MAXIMUM_ALLOCATION);
    String mbText = get(path, QueueKey.MAXIMUM_ALLOCATION_MB);
    String vcoresText = get(path, QueueKey.MAXIMUM_ALLOCATION_VCORES);
    String key;
    if (resource != null && !resource.isBlank()) {
      key = where(path, QueueKey.MAXIMUM_ALLOCATION);
      MaximumAllocationText.Allocation a = MaximumAllocationText.parse(key, resource);
      mb = a.memoryMb();
      vcores = a.vcores();
      for (QueueKey ignored : List.of(QueueKey.MAXIMUM_ALLOCATION_MB, QueueKey.MAXIMUM_ALLOCATION_VCORES)) {
        if (get(path, ignored) != null) {
          warnings.add(new ConfigWarning(where(path, ignored), "has no effect: " + key + " is set and takes precedence, as in Hadoop"));
        }
      }
    } else {
      key = where(path, mbText != null ? QueueKey.MAXIMUM_ALLOCATION_MB : QueueKey.MAXIMUM_ALLOCATION_VCORES);
      long ownMb = mbText == null ? -1 : allocation(where(path, QueueKey.MAXIMUM_ALLOCATION_MB), Numbers.longValue(where(path, QueueKey.MAXIMUM_ALLOCATION_MB), mbText));
      long ownVcores = vcoresText == null ? -1 : allocation(where(path, QueueKey.MAXIMUM_ALLOCATION_VCORES), Numbers.integer(where(path, QueueKey.MAXIMUM_ALLOCATION_VCORES), vcoresText));
      if (ownMb != -1) mb = ownMb;
      if (ownVcores != -1) vcores = (int) ownVcores;
    }
    if (mb > w.maximumAllocationMb() || vcores > w.maximumAllocationVcores()) {
      throw new SettingsException(
          key, "the maximum allocation of " + path + " (" + mb + " MB, " + vcores + " vcores) is above the cluster's ("
              + w.maximumAllocationMb() + " MB, " + w.maximumAllocationVcores() + " vcores: yarn.scheduler.maximum-allocation-mb and -vcores)");
    }
    return new long[] {mb, vcores};
  }

  /** -1 is Hadoop's "not set": the parent's (or the cluster's) maximum applies. */
  private static long allocation(String key, long n) {
    if (n != -1 && n <= 0) throw new SettingsException(key, "must be above 0, or -1 for the parent's, was " + n);
    return n;
  }

  private boolean preemptionDisabled(QueuePath path, Inherited up) {
    boolean inherited = up != null && up.preemptionDisabled();
    boolean own = value(path, QueueKey.DISABLE_PREEMPTION, inherited, Numbers::bool);
    return !defaults.preemptionEnabled() || own;
  }

  private Map<String, Float> ownUserWeights(QueuePath path) {
    String prefix = QueueKey.of(path.full(), QueueKey.USER_SETTINGS) + ".";
    Map<String, Float> out = new HashMap<>();
    for (String key : p.keysStartingWith(prefix)) {
      String rest = key.substring(prefix.length());
      if (!rest.endsWith("." + QueueKey.USER_WEIGHT)) continue; // named as unknown afterwards
      String user = rest.substring(0, rest.length() - QueueKey.USER_WEIGHT.length() - 1);
      if (user.isEmpty()) continue;
      String where = p.where(key);
      float w = Numbers.floatValue(where, p.get(key));
      out.put(user, w);
    }
    return out;
  }

  /** As Hadoop: each weight between 0 and 100 / minimum-user-limit-percent (the users that fit at once). */
  private void checkUserWeights(QueuePath path, Map<String, Float> weights, float userLimit) {
    float limit = Math.min(100f, userLimit);
    for (Map.Entry<String, Float> e : weights.entrySet()) {
      float w = e.getValue();
      if (w < 0f || w > 100f / limit) {
        throw new SettingsException(
            weightKey(path, e.getKey()),
            "the weight of user " + e.getKey() + " in " + path + " must be between 0 and 100 / minimum-user-limit-percent = "
                + 100f / limit + ", was " + w);
      }
    }
  }

  /** The key that set the user's weight: this queue's, else the nearest ancestor's. */
  private String weightKey(QueuePath path, String user) {
    for (QueuePath q = path; q != null; q = q.parent()) {
      String key = QueueKey.of(q.full(), QueueKey.USER_SETTINGS + "." + user + "." + QueueKey.USER_WEIGHT);
      if (p.has(key)) return p.where(key);
    }
    return QueueKey.of(path.full(), QueueKey.USER_SETTINGS);
  }

  private OptionalInt maximumApplications(QueuePath path) {
    int own = value(path, QueueKey.MAXIMUM_APPLICATIONS, -1, Numbers::integer);
    if (own < -1) throw new SettingsException(where(path, QueueKey.MAXIMUM_APPLICATIONS), "must be -1 (not set) or at least 0, was " + own);
    if (own >= 0) return OptionalInt.of(own);
    return defaults.globalQueueMaxApplications() > 0 ? OptionalInt.of(defaults.globalQueueMaxApplications()) : OptionalInt.empty();
  }

  private AccessControlList acl(QueuePath path, QueueKey k) {
    String text = get(path, k);
    if (text == null) return path.isRoot() ? AccessControlList.EVERYONE : AccessControlList.NO_ONE;
    return AclText.parse(where(path, k), text);
  }

  static float userLimitPercent(String key, String text) {
    float f = Numbers.floatValue(key, text);
    if (f < 0 || f > 100) throw new SettingsException(key, "must be between 0 and 100 (a percentage), was " + text.trim());
    return f;
  }

  static float userLimitFactor(String key, String text) {
    float f = Numbers.floatValue(key, text);
    if (f != -1f && !(f > 0)) throw new SettingsException(key, "must be above 0, or -1 for no limit, was " + text.trim());
    return f;
  }

  private String get(QueuePath path, QueueKey k) {
    return p.get(k.of(path.full()));
  }

  private String where(QueuePath path, QueueKey k) {
    return p.where(k.of(path.full()));
  }

  private <T> T value(QueuePath path, QueueKey k, T fallback, CapacityConfigReader.Parser<T> parser) {
    String text = get(path, k);
    return text == null ? fallback : parser.parse(where(path, k), text);
  }
}
