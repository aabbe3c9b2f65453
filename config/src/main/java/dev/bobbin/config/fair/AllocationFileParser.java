package dev.bobbin.config.fair;

import dev.bobbin.config.SettingsException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.w3c.dom.Element;

/**
 * Reads Hadoop's Fair Scheduler allocation file ({@code fair-scheduler.xml}) as Hadoop 3 writes
 * it. Errors name the element, e.g. {@code allocations/queue[root.a]/weight}.
 *
 * <p>Where Hadoop logs a warning and carries on (an unknown or misspelt element, a duplicated
 * setting or queue, a rule after one that always decides), this parser refuses the file: a typo
 * in a queue's limits should fail loudly, not run a cluster with the limit missing. Reservation
 * elements are accepted and ignored.
 */
public final class AllocationFileParser {
  private static final String TOP = "allocations";

  private AllocationFileParser() {}

  public static FairSchedulerConfig parse(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return parse(in, file.toString());
    } catch (NoSuchFileException e) {
      throw new SettingsException(file.toString(), "no such allocation file");
    } catch (IOException e) {
      throw new SettingsException(file.toString(), "cannot read the allocation file: " + e.getMessage());
    }
  }

  public static FairSchedulerConfig parse(InputStream in) {
    return parse(in, "allocation file");
  }

  /** @param source names the input in a malformed-XML error */
  public static FairSchedulerConfig parse(InputStream in, String source) {
    Element top = Xml.read(in, source).getDocumentElement();
    if (!top.getTagName().equals(TOP)) {
      throw new SettingsException(TOP, "the top-level element must be <allocations>, was <" + top.getTagName() + ">");
    }
    return new AllocationFileParser().read(top);
  }

  private final Set<String> seen = new HashSet<>();
  private final List<Element> queues = new ArrayList<>();
  private final Map<String, Integer> users = new HashMap<>();
  private Element placement;
  private int userMaxApps = FairDefaults.HADOOP.userMaxAppsDefault();
  private int queueMaxApps = FairDefaults.HADOOP.queueMaxAppsDefault();
  private ResourceSpec queueMaxResources = FairDefaults.HADOOP.queueMaxResourcesDefault();
  private double queueMaxAMShare = FairDefaults.HADOOP.queueMaxAMShareDefault();
  private QueuePolicy policy = FairDefaults.HADOOP.defaultQueueSchedulingPolicy();
  private Duration fairShareTimeout;
  private Duration legacyFairShareTimeout;
  private Duration minShareTimeout;
  private double fairShareThreshold = FairDefaults.HADOOP.defaultFairSharePreemptionThreshold();

  private FairSchedulerConfig read(Element top) {
    for (Element e : Xml.children(top)) element(e);
    FairDefaults defaults =
        new FairDefaults(
            userMaxApps,
            queueMaxApps,
            queueMaxResources,
            queueMaxAMShare,
            policy,
            // Hadoop 2's top-level fairSharePreemptionTimeout, honoured unless the new name is set.
            fairShareTimeout != null ? fairShareTimeout : legacyFairShareTimeout,
            minShareTimeout,
            fairShareThreshold);
    QueueBuilder root = XmlQueues.read(queues);
    TreeChecks.check(root, defaults);
    return new FairSchedulerConfig(
        root.build(), defaults, users, placement == null ? null : XmlPlacement.read(placement));
  }

  private void element(Element e) {
    String tag = e.getTagName();
    String key = TOP + "/" + tag;
    switch (tag) {
      case "queue", "pool" -> queues.add(e);
      case "user" -> user(e);
      case "queuePlacementPolicy" -> {
        once(key, tag);
        placement = e;
      }
      case "userMaxAppsDefault" -> userMaxApps = Values.apps(key, Values.wholeNumber(key, text(e, key, tag)));
      case "queueMaxAppsDefault" -> queueMaxApps = Values.apps(key, Values.wholeNumber(key, text(e, key, tag)));
      case "queueMaxResourcesDefault" -> queueMaxResources = ResourceSpec.parse(key, text(e, key, tag));
      case "queueMaxAMShareDefault" -> queueMaxAMShare = Values.amShare(key, Values.number(key, text(e, key, tag)));
      case "defaultQueueSchedulingPolicy", "defaultQueueSchedulingMode" -> {
        policy = QueuePolicy.parse(key, text(e, key, "defaultQueueSchedulingPolicy"));
        if (policy == QueuePolicy.FIFO) {
          throw new SettingsException(key, tag + " cannot be fifo: the default applies to parent queues too, and fifo is for leaf queues only");
        }
      }
      case "defaultFairSharePreemptionTimeout" -> fairShareTimeout = Values.seconds(key, text(e, key, tag));
      case "fairSharePreemptionTimeout" -> legacyFairShareTimeout = Values.seconds(key, text(e, key, tag));
      case "defaultMinSharePreemptionTimeout" -> minShareTimeout = Values.seconds(key, text(e, key, tag));
      case "defaultFairSharePreemptionThreshold" ->
          fairShareThreshold = Values.threshold(Values.number(key, text(e, key, tag)));
      case "reservation-agent", "reservation-policy", "reservation-planner" -> once(key, tag);
      default -> throw new SettingsException(key, "unknown element <" + tag + ">");
    }
  }

  /** A top-level setting's text, refusing a second copy of it. */
  private String text(Element e, String key, String canonical) {
    once(key, canonical);
    Xml.allowAttributes(e, key, Set.of());
    return Xml.text(e, key).trim();
  }

  private void once(String key, String canonical) {
    if (!seen.add(canonical)) throw new SettingsException(key, "duplicate element <" + canonical + ">");
  }

  private void user(Element e) {
    String name = e.getAttribute("name").trim();
    if (name.isEmpty()) throw new SettingsException(TOP + "/user", "user name is empty");
    String key = TOP + "/user[" + name + "]";
    Xml.allowAttributes(e, key, Set.of("name"));
    if (users.containsKey(name) || !seen.add("user " + name)) {
      throw new SettingsException(key, "duplicate user " + name);
    }
    for (Element c : Xml.children(e)) {
      String ck = key + "/" + c.getTagName();
      if (!c.getTagName().equals("maxRunningApps")) {
        throw new SettingsException(ck, "unknown element <" + c.getTagName() + ">");
      }
      if (users.containsKey(name)) throw new SettingsException(ck, "duplicate element <maxRunningApps>");
      users.put(name, Values.apps(ck, Values.wholeNumber(ck, Xml.text(c, ck))));
    }
  }
}
