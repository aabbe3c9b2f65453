package dev.bobbin.config.capacity;

import dev.bobbin.config.QueuePath;
import dev.bobbin.config.SettingsException;
import dev.bobbin.config.security.AccessControlList;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
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
      MaximumAllocationText.Allocation maximumAllocation,
      QueueOrderingPolicy queueOrderingPolicy,
      boolean preemptionDisabled,
      Map<String, Float> userWeights) {}

  private static final Inherited ABOVE_ROOT = null;

  private final HadoopProperties p;
  private final Defaults defaults;
  private final List<ConfigWarning> warnings;

  QueueReader(HadoopProperties p, Defaults defaults, List<ConfigWarning> warnings) {
    this.p = p;
    this.defaults = defaults;
    this.warnings = warnings;
  }

  CapacityQueue root() {
    return queue(QueuePath.ROOT, ABOVE_ROOT);
  }

  private CapacityQueue queue(QueuePath path, Inherited up) {
    QueueSettings s = new QueueSettings(p, path);
    List<String> childNames = childNames(s);
    boolean leaf = childNames.isEmpty();
    if (leaf && path.isRoot()) {
      throw new SettingsException(
          s.where(QueueKey.QUEUES), "root has no queues; list at least one, e.g. default (Hadoop refuses this too)");
    }
    warnAboutOtherKind(s, leaf);
    refuseQueueCreation(s);
    QueueState state = state(s, up);
    MaximumAllocationText.Allocation maxAllocation =
        MaximumAllocation.of(s, up == null ? null : up.maximumAllocation(), defaults.wide(), warnings);
    QueueOrderingPolicy queueOrdering = up == null ? QueueOrderingPolicy.UTILIZATION : up.queueOrderingPolicy();
    AppOrderingPolicy appOrdering = AppOrderingPolicy.FIFO;
    String ordering = s.text(QueueKey.ORDERING_POLICY);
    if (ordering != null && leaf) appOrdering = AppOrderingPolicy.parse(s.where(QueueKey.ORDERING_POLICY), ordering);
    if (ordering != null && !leaf) queueOrdering = QueueOrderingPolicy.parse(s.where(QueueKey.ORDERING_POLICY), ordering);
    boolean sizeBased = leaf && s.value(QueueKey.SIZE_BASED_WEIGHT, false, Numbers::bool);
    if (sizeBased && appOrdering != AppOrderingPolicy.FAIR) {
      warnings.add(new ConfigWarning(
          s.where(QueueKey.SIZE_BASED_WEIGHT), "applies to the fair ordering policy only; " + path + " orders fifo, so it has no effect"));
    }
    boolean preemptionDisabled = preemptionDisabled(s, up);
    Map<String, Float> weights = new HashMap<>(up == null ? Map.of() : up.userWeights());
    weights.putAll(ownUserWeights(path));
    Leaf l = leaf ? leafSettings(s, weights) : new Leaf(defaults);
    Inherited down = new Inherited(state, maxAllocation, queueOrdering, preemptionDisabled, weights);
    List<CapacityQueue> children = new ArrayList<>();
    for (String name : childNames) children.add(queue(path.child(name), down));
    return new CapacityQueue(
        path, capacity(s), maximumCapacity(s), state, maxAllocation.memoryMb(), maxAllocation.vcores(), appOrdering, sizeBased,
        queueOrdering, s.value(QueueKey.PRIORITY, 0, Numbers::integer), l.userLimit, l.userLimitFactor, weights,
        l.maximumApplications, l.amPercent, acl(s, QueueKey.ACL_SUBMIT_APPLICATIONS), acl(s, QueueKey.ACL_ADMINISTER_QUEUE),
        preemptionDisabled, l.defaultPriority, !leaf && s.value(QueueKey.ALLOW_ZERO_CAPACITY_SUM, false, Numbers::bool), children);
  }

  /** The settings Hadoop reads for leaf queues only; a parent carries the defaults. */
  private record Leaf(float userLimit, float userLimitFactor, OptionalInt maximumApplications, float amPercent, int defaultPriority) {
    Leaf(Defaults d) {
      this(d.minimumUserLimitPercent(), d.userLimitFactor(), OptionalInt.empty(), d.wide().maximumAmResourcePercent(), 0);
    }
  }

  private Leaf leafSettings(QueueSettings s, Map<String, Float> weights) {
    float userLimit = s.value(QueueKey.MINIMUM_USER_LIMIT_PERCENT, defaults.minimumUserLimitPercent(), QueueReader::userLimitPercent);
    checkUserWeights(s.path, weights, userLimit);
    return new Leaf(
        userLimit,
        s.value(QueueKey.USER_LIMIT_FACTOR, defaults.userLimitFactor(), QueueReader::userLimitFactor),
        maximumApplications(s),
        s.value(QueueKey.MAXIMUM_AM_RESOURCE_PERCENT, defaults.wide().maximumAmResourcePercent(), Numbers::fraction),
        s.value(QueueKey.DEFAULT_APPLICATION_PRIORITY, 0, Numbers::integer));
  }

  /** A leaf's settings on a parent, or a parent's on a leaf: Hadoop ignores them, Bobbin says so. */
  private void warnAboutOtherKind(QueueSettings s, boolean leaf) {
    for (QueueKey k : QueueKey.values()) {
      boolean applies = k.applies == QueueKey.Applies.ALL || (k.applies == QueueKey.Applies.LEAF) == leaf;
      if (!applies && s.text(k) != null) {
        String kind = leaf ? "leaf" : "parent";
        String other = leaf ? "parent" : "leaf";
        warnings.add(new ConfigWarning(
            s.where(k), "applies to " + other + " queues only; " + s.path + " is a " + kind + " queue, so it has no effect (as in Hadoop)"));
      }
    }
  }

  /** Queues made at run time change what the tree is; a switch left off is honoured by Bobbin too. */
  private static void refuseQueueCreation(QueueSettings s) {
    for (String suffix : List.of("auto-create-child-queue.enabled", "auto-queue-creation-v2.enabled")) {
      String text = s.text(suffix);
      if (text != null && Numbers.bool(s.where(suffix), text)) {
        throw new SettingsException(
            s.where(suffix), "queues created at run time are not supported yet; declare " + s.path + "'s queues in the configuration");
      }
    }
  }

  private static List<String> childNames(QueueSettings s) {
    String list = s.text(QueueKey.QUEUES);
    if (list == null) return List.of();
    Set<String> names = new LinkedHashSet<>();
    for (String raw : list.split(",")) {
      String name = raw.trim();
      if (name.isEmpty()) continue;
      if (name.contains(".") || name.chars().anyMatch(Character::isWhitespace)) {
        throw new SettingsException(s.where(QueueKey.QUEUES), "'" + name + "' is not a queue name: it must not contain '.' or white space");
      }
      if (!names.add(name)) throw new SettingsException(s.where(QueueKey.QUEUES), "queue " + name + " is listed twice");
    }
    return List.copyOf(names);
  }

  private static QueueCapacity capacity(QueueSettings s) {
    String text = s.text(QueueKey.CAPACITY);
    if (s.path.isRoot()) return rootCapacity(s, QueueKey.CAPACITY, text);
    return text == null ? new QueueCapacity.Percentage(0f) : CapacityText.capacity(s.where(QueueKey.CAPACITY), text);
  }

  private static QueueCapacity maximumCapacity(QueueSettings s) {
    String text = s.text(QueueKey.MAXIMUM_CAPACITY);
    if (s.path.isRoot()) return rootCapacity(s, QueueKey.MAXIMUM_CAPACITY, text);
    return text == null ? QueueCapacity.UNLIMITED : CapacityText.maximum(s.where(QueueKey.MAXIMUM_CAPACITY), text);
  }

  /** Root always has the whole cluster; Hadoop ignores a value there, which hides a mistake. */
  private static QueueCapacity rootCapacity(QueueSettings s, QueueKey k, String text) {
    if (text != null && !CapacityText.maximum(s.where(k), text).equals(QueueCapacity.UNLIMITED)) {
      throw new SettingsException(s.where(k), "root always has the whole cluster: leave it out or set it to 100, was " + text.trim());
    }
    return QueueCapacity.UNLIMITED;
  }

  private static QueueState state(QueueSettings s, Inherited up) {
    String text = s.text(QueueKey.STATE);
    if (text == null) return up == null ? QueueState.RUNNING : up.state();
    String key = s.where(QueueKey.STATE);
    QueueState own;
    try {
      own = QueueState.valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new SettingsException(key, "must be RUNNING or STOPPED, was '" + text + "'");
    }
    if (own == QueueState.RUNNING && up != null && up.state() != QueueState.RUNNING) {
      throw new SettingsException(key, s.path + " cannot be RUNNING under " + s.path.parent() + ", which is STOPPED");
    }
    return own;
  }

  /** As Hadoop: off for every queue while the monitor is off; else the queue's own, else its parent's. */
  private boolean preemptionDisabled(QueueSettings s, Inherited up) {
    boolean own = s.value(QueueKey.DISABLE_PREEMPTION, up != null && up.preemptionDisabled(), Numbers::bool);
    return !defaults.preemptionEnabled() || own;
  }

  private Map<String, Float> ownUserWeights(QueuePath path) {
    String prefix = QueueKey.of(path.full(), QueueKey.USER_SETTINGS) + ".";
    String suffix = "." + QueueKey.USER_WEIGHT;
    Map<String, Float> out = new HashMap<>();
    for (String key : p.keysStartingWith(prefix)) {
      String rest = key.substring(prefix.length());
      // Other user settings are named as unknown afterwards.
      if (!rest.endsWith(suffix) || rest.length() == suffix.length()) continue;
      out.put(rest.substring(0, rest.length() - suffix.length()), Numbers.floatValue(p.where(key), p.get(key)));
    }
    return out;
  }

  /** As Hadoop: each weight between 0 and 100 / minimum-user-limit-percent (the users that fit at once). */
  private void checkUserWeights(QueuePath path, Map<String, Float> weights, float userLimit) {
    float most = 100f / Math.min(100f, userLimit);
    for (Map.Entry<String, Float> e : weights.entrySet()) {
      float w = e.getValue();
      if (w < 0f || w > most) {
        throw new SettingsException(
            weightKey(path, e.getKey()),
            "the weight of user " + e.getKey() + " in " + path + " must be between 0 and 100 / minimum-user-limit-percent = " + most
                + ", was " + w);
      }
    }
  }

  /** The key that set the user's weight: this queue's, else the nearest ancestor's. */
  private String weightKey(QueuePath path, String user) {
    String suffix = QueueKey.USER_SETTINGS + "." + user + "." + QueueKey.USER_WEIGHT;
    for (QueuePath q = path; q != null; q = q.parent()) {
      if (p.has(QueueKey.of(q.full(), suffix))) return p.where(QueueKey.of(q.full(), suffix));
    }
    return QueueKey.of(path.full(), suffix);
  }

  private OptionalInt maximumApplications(QueueSettings s) {
    int own = s.value(QueueKey.MAXIMUM_APPLICATIONS, -1, Numbers::integer);
    if (own < -1) throw new SettingsException(s.where(QueueKey.MAXIMUM_APPLICATIONS), "must be -1 (not set) or at least 0, was " + own);
    if (own >= 0) return OptionalInt.of(own);
    int global = defaults.globalQueueMaxApplications();
    return global > 0 ? OptionalInt.of(global) : OptionalInt.empty();
  }

  private static AccessControlList acl(QueueSettings s, QueueKey k) {
    String text = s.text(k);
    if (text == null) return s.path.isRoot() ? AccessControlList.EVERYONE : AccessControlList.NO_ONE;
    return AclText.parse(s.where(k), text);
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
}
