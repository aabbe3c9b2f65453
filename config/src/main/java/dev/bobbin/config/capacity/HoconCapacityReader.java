package dev.bobbin.config.capacity;

import static dev.bobbin.config.fair.HoconValues.key;
import static dev.bobbin.config.fair.HoconValues.object;
import static dev.bobbin.config.fair.HoconValues.present;
import static dev.bobbin.config.fair.HoconValues.string;
import static dev.bobbin.config.fair.HoconValues.unknownKeys;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import dev.bobbin.config.QueuePath;
import dev.bobbin.config.SettingsException;
import dev.bobbin.config.fair.HoconValues;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code bobbin.scheduler.capacity} HOCON section, turned into the Hadoop properties it stands
 * for so that one reader builds the configuration from either form. Queues are objects under
 * {@code queues}, taken in name order (HOCON keeps none); a lone {@code root} object there holds
 * root's own settings. Errors name the HOCON path. Null values count as not set.
 */
final class HoconCapacityReader {
  static final String SECTION = "bobbin.scheduler.capacity";
  static final String CAPACITY_FILE = "capacity-file";
  static final String YARN_SITE_FILE = "yarn-site-file";

  /** What capacity-scheduler.xml holds: these come from the file when capacity-file is set. */
  private static final Map<String, String> SCHEDULER_KEYS = new LinkedHashMap<>();
  /** What yarn-site.xml holds: these come from the file when yarn-site-file is set. */
  private static final Map<String, String> YARN_SITE_KEYS = Map.of("max-application-priority", CapacityKeys.MAX_APPLICATION_PRIORITY);
  private static final Map<String, String> PREEMPTION_KEYS = new LinkedHashMap<>();
  /** Hadoop keys holding milliseconds, which HOCON gives as durations. */
  private static final Set<String> DURATIONS = Set.of(CapacityKeys.MONITORING_INTERVAL, CapacityKeys.MAX_WAIT_BEFORE_KILL);
  /** Hadoop keys holding comma lists, which HOCON may give as lists. */
  private static final Set<String> LISTS = Set.of(CapacityKeys.QUEUE_MAPPINGS, CapacityKeys.APPLICATION_MAPPINGS);
  /** Bobbin's own allocation bounds, the yarn-site keys' fallback. */
  private static final Map<String, String> ALLOCATION_KEYS =
      Map.of(
          "bobbin.scheduler.minimum-allocation.memory", CapacityKeys.MINIMUM_ALLOCATION_MB,
          "bobbin.scheduler.minimum-allocation.vcores", CapacityKeys.MINIMUM_ALLOCATION_VCORES,
          "bobbin.scheduler.maximum-allocation.memory", CapacityKeys.MAXIMUM_ALLOCATION_MB,
          "bobbin.scheduler.maximum-allocation.vcores", CapacityKeys.MAXIMUM_ALLOCATION_VCORES);

  static {
    SCHEDULER_KEYS.put("maximum-applications", CapacityKeys.MAXIMUM_APPLICATIONS);
    SCHEDULER_KEYS.put("maximum-am-resource-percent", CapacityKeys.MAXIMUM_AM_RESOURCE_PERCENT);
    SCHEDULER_KEYS.put("resource-calculator", CapacityKeys.RESOURCE_CALCULATOR);
    SCHEDULER_KEYS.put("node-locality-delay", CapacityKeys.NODE_LOCALITY_DELAY);
    SCHEDULER_KEYS.put("rack-locality-additional-delay", CapacityKeys.RACK_LOCALITY_ADDITIONAL_DELAY);
    SCHEDULER_KEYS.put("rack-locality-full-reset", CapacityKeys.RACK_LOCALITY_FULL_RESET);
    SCHEDULER_KEYS.put("reservations-continue-looking", CapacityKeys.RESERVATIONS_CONTINUE_LOOKING);
    SCHEDULER_KEYS.put("minimum-user-limit-percent", CapacityKeys.MINIMUM_USER_LIMIT_PERCENT);
    SCHEDULER_KEYS.put("user-limit-factor", CapacityKeys.USER_LIMIT_FACTOR);
    SCHEDULER_KEYS.put("global-queue-max-application", CapacityKeys.GLOBAL_QUEUE_MAX_APPLICATION);
    SCHEDULER_KEYS.put("queue-mappings", CapacityKeys.QUEUE_MAPPINGS);
    SCHEDULER_KEYS.put("queue-mappings-override", CapacityKeys.QUEUE_MAPPINGS_OVERRIDE);
    SCHEDULER_KEYS.put("application-mappings", CapacityKeys.APPLICATION_MAPPINGS);
    PREEMPTION_KEYS.put("enabled", CapacityKeys.MONITOR_ENABLE);
    PREEMPTION_KEYS.put("observe-only", CapacityKeys.OBSERVE_ONLY);
    PREEMPTION_KEYS.put("monitoring-interval", CapacityKeys.MONITORING_INTERVAL);
    PREEMPTION_KEYS.put("max-wait-before-kill", CapacityKeys.MAX_WAIT_BEFORE_KILL);
    PREEMPTION_KEYS.put("total-preemption-per-round", CapacityKeys.TOTAL_PREEMPTION_PER_ROUND);
    PREEMPTION_KEYS.put("max-ignored-over-capacity", CapacityKeys.MAX_IGNORED_OVER_CAPACITY);
    PREEMPTION_KEYS.put("natural-termination-factor", CapacityKeys.NATURAL_TERMINATION_FACTOR);
  }

  private final Map<String, HadoopProperties.Property> out = new LinkedHashMap<>();

  private HoconCapacityReader() {}

  /** The section (empty if absent), refusing keys it does not know. */
  static ConfigObject section(Config root) {
    if (!root.hasPath(SECTION)) return ConfigFactory.empty().root();
    ConfigObject s = object(SECTION, root.getValue(SECTION));
    Set<String> known = new HashSet<>(SCHEDULER_KEYS.keySet());
    known.addAll(YARN_SITE_KEYS.keySet());
    known.addAll(Set.of(CAPACITY_FILE, YARN_SITE_FILE, "preemption", "queues"));
    unknownKeys(s, SECTION, known);
    return s;
  }

  /** The file a key names, or null when it is unset or empty. */
  static Path file(Config root, String k) {
    ConfigValue v = present(section(root), k);
    if (v == null) return null;
    String f = string(key(SECTION, k), v).trim();
    return f.isEmpty() ? null : Path.of(f);
  }

  /**
   * @param scheduler take what capacity-scheduler.xml would hold (false: a capacity file gives it,
   *     and the section must not)
   * @param yarnSite take what yarn-site.xml would hold (false: a yarn-site file gives it)
   */
  static HadoopProperties read(Config root, boolean scheduler, boolean yarnSite) {
    HoconCapacityReader r = new HoconCapacityReader();
    ConfigObject s = section(root);
    r.group(s, SCHEDULER_KEYS, scheduler, CAPACITY_FILE);
    r.group(s, YARN_SITE_KEYS, yarnSite, YARN_SITE_FILE);
    ConfigValue pv = present(s, "preemption");
    if (pv != null) {
      String at = key(SECTION, "preemption");
      ConfigObject pre = object(at, pv);
      unknownKeys(pre, at, PREEMPTION_KEYS.keySet());
      r.group(pre, at, PREEMPTION_KEYS, yarnSite, YARN_SITE_FILE);
    }
    ConfigValue qv = present(s, "queues");
    String queuesAt = key(SECTION, "queues");
    if (qv != null) {
      if (!scheduler && !object(queuesAt, qv).isEmpty()) notBoth(queuesAt, CAPACITY_FILE);
      r.queues(queuesAt, object(queuesAt, qv));
    }
    if (scheduler) r.out.putIfAbsent(QueueKey.of(QueuePath.ROOT_NAME, QueueKey.QUEUES), new HadoopProperties.Property(null, queuesAt));
    for (Map.Entry<String, String> e : ALLOCATION_KEYS.entrySet()) {
      if (root.hasPath(e.getKey())) r.put(e.getValue(), e.getKey(), root.getValue(e.getKey()));
    }
    return new HadoopProperties(r.out, List.of());
  }

  private void group(ConfigObject s, Map<String, String> keys, boolean take, String file) {
    group(s, SECTION, keys, take, file);
  }

  private void group(ConfigObject s, String at, Map<String, String> keys, boolean take, String file) {
    for (Map.Entry<String, String> e : keys.entrySet()) {
      ConfigValue v = present(s, e.getKey());
      if (v == null) continue;
      String where = key(at, e.getKey());
      if (!take) notBoth(where, file);
      put(e.getValue(), where, v);
    }
  }

  private static void notBoth(String where, String file) {
    throw new SettingsException(where, "give it either in " + key(SECTION, file) + " or here, not both");
  }

  private void queues(String at, ConfigObject top) {
    if (top.containsKey(QueuePath.ROOT_NAME)) {
      if (top.size() > 1) {
        throw new SettingsException(
            key(at, QueuePath.ROOT_NAME), "a root queue must be the only top-level queue; put the others inside it");
      }
      String rk = key(at, QueuePath.ROOT_NAME);
      queue(QueuePath.ROOT, rk, object(rk, top.get(QueuePath.ROOT_NAME)));
    } else {
      children(QueuePath.ROOT, at, top);
    }
  }

  private void queue(QueuePath path, String at, ConfigObject obj) {
    for (String k : new TreeSet<>(obj.keySet())) {
      ConfigValue v = present(obj, k);
      if (v == null) continue;
      String where = key(at, k);
      if (k.equals(QueueKey.QUEUES)) {
        children(path, where, object(where, v));
      } else if (k.equals(QueueKey.USER_SETTINGS)) {
        userSettings(path, where, object(where, v));
      } else {
        QueueKey qk = QueueKey.byHocon(k);
        if (qk == null) throw new SettingsException(where, "unknown queue setting '" + k + "'");
        put(qk.of(path.full()), where, v);
      }
    }
  }

  private void children(QueuePath parent, String at, ConfigObject obj) {
    List<String> names = new ArrayList<>(new TreeSet<>(obj.keySet()));
    if (names.isEmpty()) return;
    for (String name : names) {
      String where = key(at, name);
      if (name.contains(".") || name.isBlank() || name.chars().anyMatch(Character::isWhitespace)) {
        throw new SettingsException(
            where, "'" + name + "' is not a queue name: it must not contain '.' or white space; nest queues instead");
      }
      ConfigValue v = obj.get(name);
      if (v.valueType() != ConfigValueType.OBJECT) {
        throw new SettingsException(where, "a queue must be an object, e.g. " + name + " { capacity = 50 }");
      }
      queue(parent.child(name), where, (ConfigObject) v);
    }
    out.put(QueueKey.of(parent.full(), QueueKey.QUEUES), new HadoopProperties.Property(String.join(",", names), at));
  }

  private void userSettings(QueuePath path, String at, ConfigObject users) {
    for (String user : new TreeSet<>(users.keySet())) {
      String uk = key(at, user);
      ConfigObject u = object(uk, users.get(user));
      unknownKeys(u, uk, Set.of(QueueKey.USER_WEIGHT));
      ConfigValue w = present(u, QueueKey.USER_WEIGHT);
      if (w != null) {
        String hadoopKey = QueueKey.of(path.full(), QueueKey.USER_SETTINGS + "." + user + "." + QueueKey.USER_WEIGHT);
        put(hadoopKey, key(uk, QueueKey.USER_WEIGHT), w);
      }
    }
  }

  /** The value as the text a Hadoop file would hold. */
  private void put(String hadoopKey, String where, ConfigValue v) {
    out.put(hadoopKey, new HadoopProperties.Property(text(hadoopKey, where, v), where));
  }

  private static String text(String hadoopKey, String where, ConfigValue v) {
    if (DURATIONS.contains(hadoopKey)) return Long.toString(HoconValues.duration(where, v).toMillis());
    if (v instanceof ConfigList list && LISTS.contains(hadoopKey)) {
      List<String> items = new ArrayList<>();
      for (ConfigValue item : list) items.add(string(where, item));
      return String.join(",", items);
    }
    return switch (v.valueType()) {
      case STRING -> (String) v.unwrapped();
      case NUMBER, BOOLEAN -> v.unwrapped().toString();
      default -> throw new SettingsException(where, "must be a single value, was " + v.render());
    };
  }
}
