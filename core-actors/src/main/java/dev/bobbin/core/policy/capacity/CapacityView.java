package dev.bobbin.core.policy.capacity;

import dev.bobbin.core.policy.SchedulerView;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The capacity policy's state in Hadoop's {@code capacityScheduler} shape of
 * {@code GET /ws/v1/cluster/scheduler}: percentages as Hadoop's web service gives them (0 to 100),
 * leaf queues listed before parent queues among siblings, as Hadoop lists them.
 */
public record CapacityView(QueueRow root) implements SchedulerView {

  /**
   * One queue's numbers.
   *
   * @param capacity percent of the parent; the others likewise as Hadoop's fields say
   * @param state RUNNING, STOPPED, or DRAINING for a stopped queue that still holds applications
   * @param reserved what nodes reserved for its applications hold, counted in {@code used} too
   * @param leaf null for a parent queue
   */
  public record QueueRow(String path, String name, float capacity, float usedCapacity, float maxCapacity,
      float absoluteCapacity, float absoluteUsedCapacity, float absoluteMaxCapacity, String state,
      int numApplications, Resource used, Resource pending, int allocatedContainers, int pendingContainers,
      Resource guaranteed, Resource maximum, Resource configuredMinimum, Resource configuredMaximum,
      Resource maximumAllocation, boolean absoluteResource, int priority, String orderingPolicy, String submitAcl,
      String administerAcl, Resource reserved, int reservedContainers, LeafRow leaf, List<QueueRow> children) {
    public QueueRow {
      children = List.copyOf(children);
    }
  }

  /**
   * @param userLimit {@code minimum-user-limit-percent}, as Hadoop's field holds it
   * @param amPercent {@code maximum-am-resource-percent}, a fraction
   */
  public record LeafRow(int activeApplications, int pendingApplications, int containers, int maxApplications,
      int maxApplicationsPerUser, float userLimit, float userLimitFactor, float amPercent, Resource amLimit,
      Resource amUsed, Resource userAmLimit, boolean preemptionDisabled, int defaultPriority, List<UserRow> users) {
    public LeafRow {
      users = List.copyOf(users);
    }
  }

  /** @param limit the user limit it is held to, its weight applied */
  public record UserRow(String user, Resource used, Resource pending, int activeApplications,
      int pendingApplications, Resource amUsed, Resource limit, Resource amLimit, float weight, boolean active) {}

  @Override
  public Map<String, Object> schedulerInfo() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("type", "capacityScheduler");
    m.put("capacity", root.capacity());
    m.put("usedCapacity", root.usedCapacity());
    m.put("maxCapacity", root.maxCapacity());
    m.put("weight", -1f);
    m.put("normalizedWeight", 0f);
    m.put("queueName", root.name());
    m.put("queuePath", root.path());
    m.put("maxParallelApps", Integer.MAX_VALUE);
    m.put("isAbsoluteResource", root.absoluteResource());
    m.put("queues", children(root));
    m.put("capacities", capacities(root, false));
    m.put("maximumAllocation", root.maximumAllocation());
    m.put("queueAcls", acls(root));
    m.put("queuePriority", root.priority());
    m.put("orderingPolicyInfo", root.orderingPolicy());
    m.put("mode", mode(root));
    m.put("queueType", "parent");
    m.put("creationMethod", "static");
    m.put("autoCreationEligibility", "off");
    return m;
  }

  private static Map<String, Object> children(QueueRow q) {
    List<Object> out = new ArrayList<>();
    for (QueueRow c : q.children()) if (c.leaf() != null) out.add(queue(c));
    for (QueueRow c : q.children()) if (c.leaf() == null) out.add(queue(c));
    return Map.of("queue", out);
  }

  private static Map<String, Object> queue(QueueRow q) {
    Map<String, Object> m = new LinkedHashMap<>();
    if (q.leaf() != null) m.put("type", "capacitySchedulerLeafQueueInfo");
    m.put("queuePath", q.path());
    m.put("capacity", q.capacity());
    m.put("usedCapacity", q.usedCapacity());
    m.put("maxCapacity", q.maxCapacity());
    m.put("absoluteCapacity", q.absoluteCapacity());
    m.put("absoluteMaxCapacity", q.absoluteMaxCapacity());
    m.put("absoluteUsedCapacity", q.absoluteUsedCapacity());
    m.put("weight", -1f);
    m.put("normalizedWeight", 0f);
    m.put("numApplications", q.numApplications());
    m.put("maxParallelApps", Integer.MAX_VALUE);
    m.put("queueName", q.name());
    m.put("isAbsoluteResource", q.absoluteResource());
    m.put("state", q.state());
    m.put("resourcesUsed", q.used());
    m.put("hideReservationQueues", false);
    m.put("nodeLabels", List.of("*"));
    m.put("allocatedContainers", q.allocatedContainers());
    m.put("reservedContainers", q.reservedContainers());
    m.put("pendingContainers", q.pendingContainers());
    m.put("capacities", capacities(q, q.leaf() != null));
    m.put("resources", resources(q));
    m.put("minEffectiveCapacity", q.guaranteed());
    m.put("maxEffectiveCapacity", q.maximum());
    m.put("maximumAllocation", q.maximumAllocation());
    m.put("queueAcls", acls(q));
    m.put("queuePriority", q.priority());
    m.put("orderingPolicyInfo", q.orderingPolicy());
    m.put("mode", mode(q));
    m.put("queueType", q.leaf() != null ? "leaf" : "parent");
    m.put("creationMethod", "static");
    m.put("autoCreationEligibility", "off");
    if (q.leaf() == null) {
      m.put("queues", children(q));
      return m;
    }
    LeafRow l = q.leaf();
    m.put("numActiveApplications", l.activeApplications());
    m.put("numPendingApplications", l.pendingApplications());
    m.put("numContainers", l.containers());
    m.put("maxApplications", l.maxApplications());
    m.put("maxApplicationsPerUser", l.maxApplicationsPerUser());
    m.put("userLimit", l.userLimit());
    m.put("users", Map.of("user", l.users().stream().map(CapacityView::user).toList()));
    m.put("userLimitFactor", l.userLimitFactor());
    m.put("configuredMaxAMResourceLimit", l.amPercent());
    m.put("AMResourceLimit", l.amLimit());
    m.put("usedAMResource", l.amUsed());
    m.put("userAMResourceLimit", l.userAmLimit());
    m.put("preemptionDisabled", l.preemptionDisabled());
    m.put("intraQueuePreemptionDisabled", true);
    m.put("defaultPriority", l.defaultPriority());
    m.put("isAutoCreatedLeafQueue", false);
    m.put("maxApplicationLifetime", -1L);
    m.put("defaultApplicationLifetime", -1L);
    return m;
  }

  private static Map<String, Object> user(UserRow u) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("username", u.user());
    m.put("resourcesUsed", u.used());
    m.put("numPendingApplications", u.pendingApplications());
    m.put("numActiveApplications", u.activeApplications());
    m.put("AMResourceUsed", u.amUsed());
    m.put("userResourceLimit", u.limit());
    m.put("resources", Map.of("resourceUsagesByPartition",
        List.of(partition(u.used(), Resource.NONE, u.pending(), u.amUsed(), u.amLimit(), u.amLimit()))));
    m.put("userWeight", u.weight());
    m.put("isActive", u.active());
    return m;
  }

  private static Map<String, Object> capacities(QueueRow q, boolean leaf) {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("partitionName", "");
    p.put("capacity", q.capacity());
    p.put("usedCapacity", q.usedCapacity());
    p.put("maxCapacity", q.maxCapacity());
    p.put("absoluteCapacity", q.absoluteCapacity());
    p.put("absoluteUsedCapacity", q.absoluteUsedCapacity());
    p.put("absoluteMaxCapacity", q.absoluteMaxCapacity());
    p.put("maxAMLimitPercentage", leaf ? q.leaf().amPercent() * 100 : 0f);
    p.put("weight", -1f);
    p.put("normalizedWeight", 0f);
    p.put("configuredMinResource", q.configuredMinimum());
    p.put("configuredMaxResource", q.configuredMaximum());
    p.put("effectiveMinResource", q.guaranteed());
    p.put("effectiveMaxResource", q.maximum());
    return Map.of("queueCapacitiesByPartition", List.of(p));
  }

  private static Map<String, Object> resources(QueueRow q) {
    LeafRow l = q.leaf();
    return Map.of("resourceUsagesByPartition", List.of(l == null
        ? partition(q.used(), q.reserved(), q.pending(), null, null, null)
        : partition(q.used(), q.reserved(), q.pending(), l.amUsed(), l.amLimit(), l.userAmLimit())));
  }

  private static Map<String, Object> partition(Resource used, Resource reserved, Resource pending, Resource amUsed,
      Resource amLimit, Resource userAmLimit) {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("partitionName", "");
    p.put("used", used);
    p.put("reserved", reserved);
    p.put("pending", pending);
    if (amUsed != null) {
      p.put("amUsed", amUsed);
      p.put("amLimit", amLimit);
      p.put("userAmLimit", userAmLimit);
    }
    return p;
  }

  /** Hadoop's access types in its (alphabetical) order; application priorities are not limited by ACL. */
  private static Map<String, Object> acls(QueueRow q) {
    return Map.of("queueAcl", List.of(
        Map.of("accessType", "ADMINISTER_QUEUE", "accessControlList", q.administerAcl()),
        Map.of("accessType", "APPLICATION_MAX_PRIORITY", "accessControlList", "*"),
        Map.of("accessType", "SUBMIT_APP", "accessControlList", q.submitAcl())));
  }

  private static String mode(QueueRow q) {
    return q.absoluteResource() ? "absolute" : "percentage";
  }
}
