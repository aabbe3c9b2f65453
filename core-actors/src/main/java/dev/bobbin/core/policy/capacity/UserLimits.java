package dev.bobbin.core.policy.capacity;

import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The limit each user of a leaf queue is held to, as Hadoop's {@code UsersManager.computeUserLimit}
 * computes it.
 *
 * <ul>
 *   <li>The queue's capacity is its guaranteed resource, at least the minimum allocation (so a queue
 *       with a tiny share still makes progress).
 *   <li>What the queue's users consume is the sum of their usage ratios of the cluster (each in the
 *       resource calculator's terms, added in the order the users are given; Hadoop keeps a running
 *       sum as containers come and go), times the cluster, rounded up to the minimum allocation. The
 *       current capacity is the queue's capacity while consumption is below it, else consumption
 *       plus one minimum allocation: a queue growing past its guarantee lets its users grow with it.
 *   <li>The limit is the larger of (what the active users use, plus one minimum allocation) over
 *       their summed weights, and {@code minimum-user-limit-percent} of the current capacity; each
 *       division rounds up. Active users are users with an activated application that still asks
 *       for containers; as they are served their use grows, so with n active users filling the
 *       queue the limit settles at 1/n of it, never below the minimum percentage.
 *   <li>It is capped at the queue's capacity times {@code user-limit-factor} (with factor -1, or a
 *       queue guaranteed nothing, at the queue's maximum rounded down), and rounded up to the
 *       minimum allocation.
 *   <li>Each user's own limit is that times its weight, rounded down to the minimum allocation. A
 *       user may be given another container while its use is not above its limit.
 * </ul>
 */
public final class UserLimits {
  private UserLimits() {}

  /** Whose use and weights count: the active users (for allocation) or all the queue's users (for preemption). */
  public enum Mode { ACTIVE_USERS, ALL_USERS }

  /**
   * A user with applications in the queue.
   *
   * @param active whether it has an activated application that still asks for containers
   */
  public record UserUsage(String user, Resource used, boolean active) {}

  /** One user's limit: the queue-wide limit times its weight. */
  public record UserLimit(String user, float weight, Resource used, boolean active, Resource limit,
      boolean canAssign) {}

  /**
   * @param userLimit the queue-wide limit, before user weights
   * @param users each user given, in the order given
   * @param usersWeight the summed weights the limit divides by
   */
  public record Result(
      String queue, Resource userLimit, Map<String, UserLimit> users, float usersWeight, Resource queueCapacity,
      Resource consumed, Resource currentCapacity, Resource maxUserLimit, String reason) {
    public Result {
      users = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(users));
    }
  }

  public static Result compute(CapacityTree tree, String leafPath, List<UserUsage> users, Mode mode) {
    CapacityQueueSpec spec = tree.spec(leafPath);
    if (!spec.isLeaf()) throw new IllegalArgumentException(leafPath + " is not a leaf queue");
    QueueCapacities queue = tree.queue(leafPath);
    ResourceMath rc = tree.resourceMath();
    Resource cluster = tree.cluster();
    Resource required = tree.settings().minimumAllocation();

    Resource guaranteed = queue.guaranteed();
    Resource queueCapacity = rc.max(cluster, guaranteed, required);
    float usageRatio = 0f;
    Resource activeUsed = Resource.NONE;
    Set<String> all = new LinkedHashSet<>();
    Set<String> activeUsers = new LinkedHashSet<>();
    for (UserUsage u : users) {
      usageRatio += rc.ratio(u.used(), cluster);
      all.add(u.user());
      if (u.active()) {
        activeUsers.add(u.user());
        activeUsed = activeUsed.plus(u.used());
      }
    }
    float activeWeight = summedWeights(spec, activeUsers);
    float allWeight = summedWeights(spec, all);
    Resource consumed = rc.multiplyAndNormalizeUp(cluster, usageRatio, required);
    Resource currentCapacity = rc.lessThan(cluster, consumed, queueCapacity) ? queueCapacity : consumed.plus(required);

    boolean active = mode == Mode.ACTIVE_USERS;
    float usersWeight = active ? activeWeight : allWeight;
    Resource shared = active ? activeUsed.plus(required) : currentCapacity;
    Resource byUsers = rc.divideAndCeil(shared, usersWeight);
    Resource byPercent = rc.divideAndCeil(
        ResourceMath.multiplyAndRoundDown(currentCapacity, spec.minimumUserLimitPercent()), 100);
    Resource uncapped = rc.max(cluster, byUsers, byPercent);

    boolean noFactor = spec.userLimitFactor() == -1f || guaranteed.equals(Resource.NONE);
    Resource maxUserLimit = noFactor ? rc.normalizeDown(queue.maximum(), required)
        : ResourceMath.multiplyAndRoundDown(queueCapacity, spec.userLimitFactor());
    Resource userLimit = rc.roundUp(rc.min(cluster, uncapped, maxUserLimit), required);

    Map<String, UserLimit> perUser = new LinkedHashMap<>();
    for (UserUsage u : users) {
      float weight = spec.userWeight(u.user());
      Resource limit = rc.multiplyAndNormalizeDown(userLimit, weight, required);
      perUser.put(u.user(), new UserLimit(u.user(), weight, u.used(), u.active(), limit,
          !rc.greaterThan(cluster, u.used(), limit)));
    }

    String reason = String.format("queue capacity %s (guaranteed %s, at least the minimum allocation %s);"
        + " users consume %s of the cluster, rounded up to %s, so the current capacity is %s;"
        + " limit = max(%s %s over %s users' weight %s = %s, %s%% of %s = %s) = %s, capped at %s (%s),"
        + " rounded up to the minimum allocation: %s",
        queueCapacity, guaranteed, required, usageRatio, consumed, currentCapacity,
        active ? "active use plus one minimum allocation" : "current capacity", shared,
        active ? "active" : "all", usersWeight, byUsers, spec.minimumUserLimitPercent(), currentCapacity, byPercent,
        uncapped, maxUserLimit,
        noFactor ? "the queue's maximum" : "capacity x user-limit-factor " + spec.userLimitFactor(), userLimit);
    return new Result(leafPath, userLimit, perUser, usersWeight, queueCapacity, consumed, currentCapacity,
        maxUserLimit, reason);
  }

  /**
   * The users of a leaf from its applications: each user's usage is what its applications in the
   * leaf hold, AM included; a user is active when one of its activated applications still asks for
   * containers. Users come in the order of their first application.
   *
   * @param userOf the user of each application id
   * @param activated the ids of the applications activated (not waiting for the AM limit)
   */
  public static List<UserUsage> usersOf(String leafPath, List<AppSnapshot> apps, Map<String, String> userOf,
      Set<String> activated) {
    Map<String, Resource> used = new LinkedHashMap<>();
    Set<String> active = new LinkedHashSet<>();
    for (AppSnapshot a : apps) {
      if (!a.queuePath().equals(leafPath)) continue;
      String user = userOf.get(a.appId());
      if (user == null) throw new IllegalArgumentException("no user for application " + a.appId());
      used.merge(user, a.usage(), Resource::plus);
      if (activated.contains(a.appId()) && !a.pending().equals(Resource.NONE)) active.add(user);
    }
    List<UserUsage> out = new ArrayList<>(used.size());
    used.forEach((user, r) -> out.add(new UserUsage(user, r, active.contains(user))));
    return out;
  }

  /**
   * The users' weights added up in the order Hadoop adds them, that of its hash sets of user names:
   * float sums of weights such as 0.7 depend on the order, and a limit divided by them can round
   * to another vcore.
   */
  private static float summedWeights(CapacityQueueSpec spec, Set<String> users) {
    float sum = 0f;
    for (String u : new HashSet<>(users)) sum += spec.userWeight(u);
    return sum;
  }

  /** The limit of a user not among those given to {@link #compute}: the queue-wide limit times its weight. */
  public static Resource limitFor(CapacityTree tree, Result result, String user) {
    UserLimit known = result.users().get(user);
    if (known != null) return known.limit();
    return tree.resourceMath().multiplyAndNormalizeDown(result.userLimit(),
        tree.spec(result.queue()).userWeight(user), tree.settings().minimumAllocation());
  }
}
