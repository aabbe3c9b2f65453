package dev.bobbin.config.fair;

import static dev.bobbin.config.fair.HoconValues.apps;
import static dev.bobbin.config.fair.HoconValues.bool;
import static dev.bobbin.config.fair.HoconValues.duration;
import static dev.bobbin.config.fair.HoconValues.key;
import static dev.bobbin.config.fair.HoconValues.number;
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
import dev.bobbin.config.SettingsException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code bobbin.scheduler.fair} HOCON section: the allocation file's content in HOCON's
 * shape. Queues are objects under {@code queues} (sorted by name, as HOCON keeps no order); a lone
 * {@code root} object there holds root's own settings, as {@code <queue name="root">} does.
 * Null values count as not set.
 */
final class HoconFairReader {
  static final String SECTION = "bobbin.scheduler.fair";
  private static final Set<String> SECTION_KEYS =
      Set.of(
          "allocation-file", "update-interval", "user-as-default-queue", "allow-undeclared-pools", "preemption",
          "locality-threshold-node", "locality-threshold-rack", "defaults", "users", "queues", "placement-rules");
  private static final Set<String> DEFAULT_KEYS =
      Set.of(
          "user-max-apps", "queue-max-apps", "queue-max-resources", "queue-max-am-share", "scheduling-policy",
          "fair-share-preemption-timeout", "min-share-preemption-timeout", "fair-share-preemption-threshold");

  private HoconFairReader() {}

  /** The section (empty if absent), refusing keys it does not know. */
  static ConfigObject section(Config root) {
    if (!root.hasPath(SECTION)) return ConfigFactory.empty().root();
    ConfigObject s = object(SECTION, root.getValue(SECTION));
    unknownKeys(s, SECTION, SECTION_KEYS);
    return s;
  }

  static FairSchedulerConfig read(Config root) {
    ConfigObject s = section(root);
    FairDefaults defaults = defaults(s);
    QueueBuilder rootQueue = queues(s);
    TreeChecks.check(rootQueue, defaults);
    return new FairSchedulerConfig(rootQueue.build(), defaults, users(s), rules(s));
  }

  /** With an allocation file the queues come from it, so the section must not give any. */
  static void requireNoQueues(Config root) {
    ConfigObject s = section(root);
    for (String k : List.of("queues", "users", "placement-rules")) {
      ConfigValue v = present(s, k);
      boolean empty =
          v == null
              || (v instanceof ConfigObject o && o.isEmpty())
              || (v instanceof ConfigList l && l.isEmpty());
      if (!empty) {
        throw new SettingsException(
            key(SECTION, k), "give queues either in allocation-file or in " + SECTION + ", not both");
      }
    }
  }

  // ---- defaults and users

  private static FairDefaults defaults(ConfigObject s) {
    FairDefaults h = FairDefaults.HADOOP;
    ConfigValue dv = present(s, "defaults");
    if (dv == null) return h;
    String at = key(SECTION, "defaults");
    ConfigObject d = object(at, dv);
    unknownKeys(d, at, DEFAULT_KEYS);
    QueuePolicy policy = h.defaultQueueSchedulingPolicy();
    if (present(d, "scheduling-policy") != null) {
      String k = key(at, "scheduling-policy");
      policy = QueuePolicy.parse(k, string(k, d.get("scheduling-policy")));
      if (policy == QueuePolicy.FIFO) {
        throw new SettingsException(k, "cannot be fifo: the default applies to parent queues too, and fifo is for leaf queues only");
      }
    }
    return new FairDefaults(
        present(d, "user-max-apps") == null ? h.userMaxAppsDefault() : apps(key(at, "user-max-apps"), d.get("user-max-apps")),
        present(d, "queue-max-apps") == null ? h.queueMaxAppsDefault() : apps(key(at, "queue-max-apps"), d.get("queue-max-apps")),
        present(d, "queue-max-resources") == null
            ? h.queueMaxResourcesDefault()
            : ResourceSpec.parse(key(at, "queue-max-resources"), string(key(at, "queue-max-resources"), d.get("queue-max-resources"))),
        present(d, "queue-max-am-share") == null
            ? h.queueMaxAMShareDefault()
            : Values.amShare(key(at, "queue-max-am-share"), number(key(at, "queue-max-am-share"), d.get("queue-max-am-share"))),
        policy,
        present(d, "fair-share-preemption-timeout") == null ? null : timeout(d, at, "fair-share-preemption-timeout"),
        present(d, "min-share-preemption-timeout") == null ? null : timeout(d, at, "min-share-preemption-timeout"),
        present(d, "fair-share-preemption-threshold") == null
            ? h.defaultFairSharePreemptionThreshold()
            : Values.threshold(number(key(at, "fair-share-preemption-threshold"), d.get("fair-share-preemption-threshold"))));
  }

  private static Map<String, Integer> users(ConfigObject s) {
    Map<String, Integer> out = new HashMap<>();
    ConfigValue uv = present(s, "users");
    if (uv == null) return out;
    String at = key(SECTION, "users");
    ConfigObject users = object(at, uv);
    for (String user : users.keySet()) {
      String uk = key(at, user);
      ConfigObject u = object(uk, users.get(user));
      unknownKeys(u, uk, Set.of("max-running-apps"));
      if (present(u, "max-running-apps") != null) {
        out.put(user, apps(key(uk, "max-running-apps"), u.get("max-running-apps")));
      }
    }
    return out;
  }

  // ---- queues

  private static QueueBuilder queues(ConfigObject s) {
    String at = key(SECTION, "queues");
    ConfigValue qv = present(s, "queues");
    ConfigObject top = qv == null ? ConfigFactory.empty().root() : object(at, qv);
    if (top.containsKey(QueueNames.ROOT)) {
      if (top.size() > 1) {
        throw new SettingsException(key(at, QueueNames.ROOT), "a root queue must be the only top-level queue; put the others inside it");
      }
      String rk = key(at, QueueNames.ROOT);
      return queue(QueueNames.ROOT, rk, object(rk, top.get(QueueNames.ROOT)));
    }
    QueueBuilder root = new QueueBuilder(QueueNames.ROOT, at, at, f -> key(at, f.hocon));
    children(root, at, top);
    return root;
  }

  private static QueueBuilder queue(String path, String at, ConfigObject obj) {
    QueueBuilder q = new QueueBuilder(path, at, key(at, "queues"), f -> key(at, f.hocon));
    for (String k : new TreeSet<>(obj.keySet())) {
      ConfigValue v = present(obj, k);
      if (v == null) continue;
      String vk = key(at, k);
      if (k.equals("queues")) {
        children(q, vk, object(vk, v));
      } else if (k.equals("type")) {
        String type = string(vk, v).trim().toLowerCase(Locale.ROOT);
        if (!type.equals("parent") && !type.equals("leaf")) {
          throw new SettingsException(vk, "type must be parent or leaf, was '" + v.unwrapped() + "'");
        }
        q.declaredType = type.equals("parent") ? QueueType.PARENT : QueueType.LEAF;
        q.declaredTypeKey = vk;
      } else {
        QueueField f = QueueField.byHocon(k);
        if (f == null) throw new SettingsException(vk, "unknown setting '" + k + "'");
        q.set(f, value(f, vk, v));
      }
    }
    return q;
  }

  private static void children(QueueBuilder parent, String at, ConfigObject obj) {
    for (String name : new TreeSet<>(obj.keySet())) {
      String ck = key(at, name);
      if (name.contains(".")) throw new SettingsException(ck, "queue name '" + name + "' must not contain '.'; nest queues instead");
      String path = parent.path + "." + name;
      String problem = QueueNames.problemWithPath(path);
      if (problem != null) throw new SettingsException(ck, problem);
      ConfigValue v = obj.get(name);
      if (v.valueType() != ConfigValueType.OBJECT) {
        throw new SettingsException(ck, "a queue must be an object, e.g. " + name + " { weight = 2 }");
      }
      parent.children.add(queue(path, ck, (ConfigObject) v));
    }
  }

  private static Object value(QueueField f, String key, ConfigValue v) {
    switch (f) {
      case WEIGHT:
        return Values.weight(key, number(key, v));
      case MIN_RESOURCES:
        return ResourceSpec.parseMinimum(key, string(key, v));
      case MAX_RESOURCES:
      case MAX_CHILD_RESOURCES:
        return ResourceSpec.parse(key, string(key, v));
      case MAX_CONTAINER_ALLOCATION:
        return ResourceSpec.parseAbsolute(key, string(key, v));
      case MAX_RUNNING_APPS:
        return apps(key, v);
      case MAX_AM_SHARE:
        return Values.amShare(key, number(key, v));
      case SCHEDULING_POLICY:
        return QueuePolicy.parse(key, string(key, v));
      case MIN_SHARE_PREEMPTION_TIMEOUT:
      case FAIR_SHARE_PREEMPTION_TIMEOUT:
        return duration(key, v);
      case FAIR_SHARE_PREEMPTION_THRESHOLD:
        return Values.threshold(number(key, v));
      case ALLOW_PREEMPTION_FROM:
        return bool(key, v);
      case ACL_SUBMIT_APPS:
      case ACL_ADMINISTER_APPS:
        return string(key, v);
      default:
        throw new IllegalStateException("unhandled field " + f);
    }
  }

  // ---- placement rules

  private static PlacementPolicy rules(ConfigObject s) {
    ConfigValue rv = present(s, "placement-rules");
    if (rv == null) return null;
    String at = key(SECTION, "placement-rules");
    if (!(rv instanceof ConfigList list)) {
      throw new SettingsException(at, "must be a list of rules, e.g. [{ name = specified }, { name = default }]");
    }
    List<PlacementRule> rules = new ArrayList<>();
    for (ConfigValue r : list) rules.add(rule(ruleKey(rules.size() + 1), r));
    return PlacementPolicy.checked(rules, at, HoconFairReader::ruleKey);
  }

  private static String ruleKey(int n) {
    return key(SECTION, "placement-rules") + "[" + n + "]";
  }

  private static PlacementRule rule(String at, ConfigValue v) {
    ConfigObject r = object(at, v);
    unknownKeys(r, at, Set.of("name", "create", "queue", "parent"));
    if (present(r, "name") == null) throw new SettingsException(at, "rule has no name");
    PlacementRule.Kind kind = PlacementRule.Kind.parse(at, string(key(at, "name"), r.get("name")));
    boolean create = present(r, "create") == null || bool(key(at, "create"), r.get("create"));
    String queue = null;
    if (present(r, "queue") != null) {
      if (kind != PlacementRule.Kind.DEFAULT) throw new SettingsException(at, "queue applies to the default rule only");
      String q = string(key(at, "queue"), r.get("queue")).trim();
      String problem = QueueNames.problemWithPath(q);
      if (problem != null) throw new SettingsException(key(at, "queue"), problem);
      queue = q;
    }
    String parentKey = key(at, "parent");
    PlacementRule parent = present(r, "parent") == null ? null : rule(parentKey, r.get("parent"));
    PlacementRule rule = new PlacementRule(kind, create, queue, parent);
    rule.check(at, parentKey);
    return rule;
  }

  private static Duration timeout(ConfigObject d, String at, String k) {
    return duration(key(at, k), d.get(k));
  }
}
