package dev.bobbin.config.fair;

import dev.bobbin.config.SettingsException;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.w3c.dom.Element;

/** The {@code <queue>} (or {@code <pool>}) elements of an allocation file, as a queue tree. */
final class XmlQueues {
  /** Reservation settings: accepted so Hadoop files load, and ignored (Bobbin has no reservations). */
  private static final Set<String> IGNORED =
      Set.of("reservation", "aclAdministerReservations", "aclListReservations", "aclSubmitReservations");

  private final Set<String> paths = new HashSet<>();

  private XmlQueues() {}

  /** A top-level {@code <queue name="root">} must stand alone; otherwise top-level queues hang off root. */
  static QueueBuilder read(List<Element> topLevel) {
    XmlQueues reader = new XmlQueues();
    Element explicitRoot =
        topLevel.stream().filter(e -> e.getAttribute("name").trim().equalsIgnoreCase(QueueNames.ROOT)).findFirst().orElse(null);
    if (explicitRoot != null) {
      String key = keyOf(explicitRoot.getTagName(), QueueNames.ROOT);
      if (topLevel.size() > 1) {
        throw new SettingsException(key, "a <queue name=\"root\"> must be the only top-level queue; put the others inside it");
      }
      QueueBuilder root = builder(QueueNames.ROOT, key, key, explicitRoot.getTagName());
      reader.paths.add(QueueNames.ROOT);
      reader.fill(root, explicitRoot);
      return root;
    }
    QueueBuilder root = builder(QueueNames.ROOT, keyOf("queue", QueueNames.ROOT), "allocations", "queue");
    reader.paths.add(QueueNames.ROOT);
    topLevel.forEach(e -> reader.child(root, e));
    return root;
  }

  private static String keyOf(String tag, String path) {
    return "allocations/" + tag + "[" + path + "]";
  }

  private static QueueBuilder builder(String path, String key, String nestedKey, String tag) {
    return new QueueBuilder(path, key, nestedKey, f -> keyOf(tag, path) + "/" + f.xml);
  }

  private void child(QueueBuilder parent, Element e) {
    String at = parent.nestedKey + "/" + e.getTagName();
    String name = e.getAttribute("name").trim();
    if (name.isEmpty()) throw new SettingsException(at, "queue name is empty");
    if (name.contains(".")) {
      throw new SettingsException(at, "queue name '" + name + "' must not contain '.'; nest <queue> elements instead");
    }
    String path = parent.path + "." + name;
    String key = keyOf(e.getTagName(), path);
    if (!paths.add(path)) throw new SettingsException(key, "duplicate queue " + path);
    QueueBuilder q = builder(path, key, key, e.getTagName());
    parent.children.add(q);
    fill(q, e);
  }

  private void fill(QueueBuilder q, Element e) {
    Xml.allowAttributes(e, q.key, Set.of("name", "type"));
    if (e.hasAttribute("type")) {
      String type = e.getAttribute("type").trim().toLowerCase(Locale.ROOT);
      if (!type.equals("parent") && !type.equals("leaf")) {
        throw new SettingsException(q.key, "type must be parent or leaf, was '" + e.getAttribute("type") + "'");
      }
      q.declaredType = type.equals("parent") ? QueueType.PARENT : QueueType.LEAF;
      q.declaredTypeKey = q.key;
    }
    for (Element c : Xml.children(e)) {
      String tag = c.getTagName();
      String key = q.nestedKey + "/" + tag;
      if (tag.equals("queue") || tag.equals("pool")) {
        child(q, c);
      } else if (IGNORED.contains(tag)) {
        continue;
      } else {
        QueueField f = tag.equals("schedulingMode") ? QueueField.SCHEDULING_POLICY : QueueField.byXml(tag);
        if (f == null) throw new SettingsException(key, "unknown element <" + tag + ">");
        Xml.allowAttributes(c, key, Set.of());
        q.set(f, value(f, key, Xml.text(c, key)));
      }
    }
  }

  private static Object value(QueueField f, String key, String text) {
    String t = text.trim();
    switch (f) {
      case WEIGHT:
        return Values.weight(key, Values.number(key, t));
      case MIN_RESOURCES:
        return ResourceSpec.parseMinimum(key, t);
      case MAX_RESOURCES:
      case MAX_CHILD_RESOURCES:
        return ResourceSpec.parse(key, t);
      case MAX_CONTAINER_ALLOCATION:
        return ResourceSpec.parseAbsolute(key, t);
      case MAX_RUNNING_APPS:
        return Values.apps(key, Values.wholeNumber(key, t));
      case MAX_AM_SHARE:
        return Values.amShare(key, Values.number(key, t));
      case SCHEDULING_POLICY:
        return QueuePolicy.parse(key, t);
      case MIN_SHARE_PREEMPTION_TIMEOUT:
      case FAIR_SHARE_PREEMPTION_TIMEOUT:
        return Values.seconds(key, t);
      case FAIR_SHARE_PREEMPTION_THRESHOLD:
        return Values.threshold(Values.number(key, t));
      case ALLOW_PREEMPTION_FROM:
        return Values.bool(key, t);
      case ACL_SUBMIT_APPS:
      case ACL_ADMINISTER_APPS:
        return text;
      default:
        throw new IllegalStateException("unhandled field " + f);
    }
  }
}
