package dev.bobbin.config.fair;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Chooses the leaf queue for a submitted application by running a placement policy's rules in
 * order, as Hadoop 3's FairScheduler does. Pure: it reads the known queues and returns which ones
 * to create; it creates nothing.
 */
public final class QueuePlacement {
  private QueuePlacement() {}

  /** What a rule decided: a queue, pass to the next rule, or refuse the application. */
  private sealed interface Outcome {}

  private record Place(String path) implements Outcome {}

  private record Next() implements Outcome {}

  private record Refuse(String reason) implements Outcome {}

  private static final Outcome NEXT = new Next();

  private record Request(String requestedQueue, String user, List<String> groups, KnownQueues queues) {}

  /**
   * @param requestedQueue the queue named in the submission; null or "" count as "default", which
   *     the specified rule passes over
   * @param groups the user's groups, primary group first
   */
  public static Placement place(
      PlacementPolicy policy, String requestedQueue, String user, List<String> groups, KnownQueues queues) {
    Objects.requireNonNull(user, "user");
    Request r = new Request(requestedQueue, user, List.copyOf(groups), queues);
    List<PlacementRule> rules = policy.rules();
    for (int i = 0; i < rules.size(); i++) {
      String label = "rule " + (i + 1) + " (" + rules.get(i).describe() + ")";
      Outcome o = evaluate(rules.get(i), r);
      if (o instanceof Refuse refuse) return new Placement.Rejected(label + ": " + refuse.reason());
      if (o instanceof Place place) return finish(place.path(), label, queues);
    }
    return new Placement.Rejected("no placement rule chose a queue");
  }

  private static Outcome evaluate(PlacementRule rule, Request r) {
    switch (rule.kind()) {
      case SPECIFIED:
        return specified(rule, r);
      case USER:
      case NESTED_USER_QUEUE:
        return under(rule, r, QueueNames.clean(r.user()));
      case PRIMARY_GROUP:
        if (r.groups().isEmpty()) return new Refuse("no groups are known for user " + r.user());
        return under(rule, r, QueueNames.clean(r.groups().get(0)));
      case SECONDARY_GROUP_EXISTING_QUEUE:
        return secondaryGroup(rule, r);
      case DEFAULT:
        return createOrConfigured(rule, rule.queue(), r);
      case REJECT:
        return new Refuse("the reject rule refuses every application that reaches it");
      default:
        throw new IllegalStateException("unhandled rule " + rule.kind());
    }
  }

  private static Outcome specified(PlacementRule rule, Request r) {
    String q = r.requestedQueue() == null || r.requestedQueue().isEmpty() ? "default" : r.requestedQueue();
    if (!q.equals(q.trim()) || q.startsWith(".") || q.endsWith(".")) {
      return new Refuse("requested queue name '" + q + "' is not valid");
    }
    // The RM fills in "default" when the submitter names no queue: that is no request at all.
    if (q.equals("default")) return NEXT;
    return createOrConfigured(rule, QueueNames.assureRoot(q), r);
  }

  /** A queue named {@code name} under root, or under the queue the parent rule gives. */
  private static Outcome under(PlacementRule rule, Request r, String name) {
    Outcome base = base(rule, r);
    if (!(base instanceof Place parent)) return base;
    return createOrConfigured(rule, parent.path() + "." + name, r);
  }

  /** The first secondary group with a configured queue of its name. */
  private static Outcome secondaryGroup(PlacementRule rule, Request r) {
    Outcome base = base(rule, r);
    if (!(base instanceof Place parent)) return base;
    for (String group : r.groups().subList(Math.min(1, r.groups().size()), r.groups().size())) {
      String path = parent.path() + "." + QueueNames.clean(group);
      if (r.queues().isConfigured(path)) return new Place(path);
    }
    return NEXT;
  }

  /** Root, or the parent rule's queue; a parent rule that lands on a leaf passes the app on. */
  private static Outcome base(PlacementRule rule, Request r) {
    if (rule.parent() == null) return new Place(QueueNames.ROOT);
    Outcome o = evaluate(rule.parent(), r);
    if (o instanceof Place p && r.queues().isLeaf(p.path())) return NEXT;
    return o;
  }

  private static Outcome createOrConfigured(PlacementRule rule, String path, Request r) {
    return rule.create() || r.queues().isConfigured(path) ? new Place(path) : NEXT;
  }

  /** The chosen queue must be a leaf, or creatable as one under parents that are not leaves. */
  private static Placement finish(String path, String label, KnownQueues queues) {
    String problem = QueueNames.problemWithPath(path);
    if (problem != null) return new Placement.Rejected(label + ": " + problem);
    if (queues.isParent(path)) {
      return new Placement.Rejected(label + ": " + path + " is a parent queue; applications go to leaf queues");
    }
    List<String> create = new ArrayList<>();
    String[] parts = path.split("\\.");
    StringBuilder prefix = new StringBuilder(parts[0]);
    for (int i = 1; i < parts.length; i++) {
      if (queues.isLeaf(prefix.toString())) {
        return new Placement.Rejected(
            label + ": cannot place in " + path + " because " + prefix + " is a leaf queue");
      }
      prefix.append('.').append(parts[i]);
      if (!queues.exists(prefix.toString())) create.add(prefix.toString());
    }
    return new Placement.Placed(path, create, label);
  }
}
