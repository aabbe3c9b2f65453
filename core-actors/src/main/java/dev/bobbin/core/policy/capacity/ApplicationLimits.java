package dev.bobbin.core.policy.capacity;

import dev.bobbin.core.policy.capacity.QueueCapacity.Absolute;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How many applications a leaf queue takes, and which of its accepted applications may start their
 * AM, as Hadoop's {@code LeafQueue} decides: {@code maximum-applications} per queue and per user,
 * and {@code maximum-am-resource-percent} for the AM resource limit of the queue and of each user.
 */
public final class ApplicationLimits {
  private ApplicationLimits() {}

  /** The diagnostics Hadoop gives an application it does not activate, and the reasons in them. */
  public static final String NOT_YET_ACTIVATED = "Application is added to the scheduler and is not yet activated. ";
  public static final String QUEUE_AM_RESOURCE_LIMIT_EXCEEDED = "Queue's AM resource limit exceeded. ";
  public static final String USER_AM_RESOURCE_LIMIT_EXCEEDED = "User's AM resource limit exceeded. ";
  public static final String CLUSTER_RESOURCE_EMPTY = "Skipping AM assignment as cluster resource is empty. ";
  public static final String ACTIVATED = "Application is Activated, waiting for resources to be assigned for AM. ";
  /** Why an application past the AM limit starts anyway: it is the queue's only one. */
  public static final String LIMIT_TOO_LOW = "maximum-am-resource-percent is insufficient to start a single"
      + " application in queue, it is likely set too low. skipping enforcement to allow at least one"
      + " application to start";
  private static final String DEFAULT_PARTITION = "<DEFAULT_PARTITION>";

  /**
   * {@code maximum-applications} of a leaf; when not set, the scheduler-wide limit (or
   * {@code global-queue-max-application}, the smaller of the two) times the queue's absolute
   * capacity, truncated. A queue with a percentage capacity under a global per-queue limit takes
   * that limit whole.
   */
  public static int maximumApplications(CapacityTree tree, String leafPath) {
    CapacityQueueSpec spec = leaf(tree, leafPath);
    Integer configured = spec.maximumApplications();
    if (configured != null && configured >= 0) return configured;
    CapacitySettings s = tree.settings();
    int perQueue = s.globalMaximumApplicationsPerQueue();
    int base = perQueue > 0 ? Math.min(perQueue, s.maximumSystemApplications()) : s.maximumSystemApplications();
    if (perQueue > 0 && !(spec.capacity() instanceof Absolute)) return base;
    return (int) (base * tree.queue(leafPath).absoluteCapacity());
  }

  /**
   * The applications one user may have in the leaf: the queue's maximum times
   * {@code minimum-user-limit-percent} and {@code user-limit-factor}, truncated, at most the queue's
   * maximum; with factor -1, the queue's maximum.
   */
  public static int maximumApplicationsPerUser(CapacityTree tree, String leafPath) {
    CapacityQueueSpec spec = leaf(tree, leafPath);
    int queue = maximumApplications(tree, leafPath);
    if (spec.userLimitFactor() == -1f) return queue;
    return Math.min(queue, (int) (queue * (spec.minimumUserLimitPercent() / 100.0f) * spec.userLimitFactor()));
  }

  /**
   * The AM resource limits of a leaf.
   *
   * @param queueLimit {@code maximum-am-resource-percent} of what the queue can use now: its current
   *     limit when its guarantee fits in it, else its guarantee; rounded up to the minimum allocation
   * @param userLimit one user's share before its weight (Hadoop's user AM resource limit)
   * @param activeUsers the users it is shared by: users whose activated applications ask for
   *     containers, and users whose applications all wait for activation
   */
  public record AmLimits(String queue, Resource queueLimit, Resource userLimit, int activeUsers, String reason) {}

  /** @param currentLimit the queue's current limit ({@link CapacityTree#currentLimit}) */
  public static AmLimits amLimits(CapacityTree tree, String leafPath, Resource currentLimit, int activeUsers) {
    CapacityQueueSpec spec = leaf(tree, leafPath);
    ResourceMath rc = tree.resourceMath();
    Resource guaranteed = tree.queue(leafPath).guaranteed();
    Resource usable = rc.fitsIn(guaranteed, currentLimit) ? currentLimit : guaranteed;
    Resource queueLimit = rc.multiplyAndNormalizeUp(usable, spec.maximumAmResourcePercent(),
        tree.settings().minimumAllocation());
    AmLimits partial = new AmLimits(leafPath, queueLimit, Resource.NONE, activeUsers, "");
    Resource userLimit = userAmLimit(tree, partial, 1f);
    String reason = String.format("maximum-am-resource-percent %s of %s (%s) = %s; per user: of the guarantee %s,"
        + " max(minimum-user-limit-percent %s%%, 1/%d active users) x user-limit-factor %s = %s",
        spec.maximumAmResourcePercent(), usable, usable == currentLimit ? "the queue's current limit" : "its guarantee",
        queueLimit, guaranteed, spec.minimumUserLimitPercent(), Math.max(activeUsers, 1), spec.userLimitFactor(),
        userLimit);
    return new AmLimits(leafPath, queueLimit, userLimit, activeUsers, reason);
  }

  /**
   * One user's AM resource limit: the queue's guarantee times {@code maximum-am-resource-percent}, the
   * user's share (the larger of {@code minimum-user-limit-percent} and one over the active users,
   * times its weight, at most 1) and {@code user-limit-factor} (ignored when -1); rounded up to the
   * minimum allocation and at most the queue's AM limit.
   */
  public static Resource userAmLimit(CapacityTree tree, AmLimits limits, float weight) {
    CapacityQueueSpec spec = leaf(tree, limits.queue());
    ResourceMath rc = tree.resourceMath();
    float share = Math.max(spec.minimumUserLimitPercent() / 100.0f, 1.0f / Math.max(limits.activeUsers(), 1));
    share = Math.min(share * weight, 1.0f);
    float by = spec.userLimitFactor() == -1f ? spec.maximumAmResourcePercent()
        : spec.maximumAmResourcePercent() * share * spec.userLimitFactor();
    Resource limit = rc.multiplyAndNormalizeUp(tree.queue(limits.queue()).guaranteed(), by,
        tree.settings().minimumAllocation());
    return rc.min(tree.cluster(), limit, limits.queueLimit());
  }

  /** Whether a submission is taken, and if not, Hadoop's message. */
  public record Admission(boolean accepted, String reason) {}

  /**
   * Whether a new application may join the leaf, checked as Hadoop does: the scheduler-wide
   * maximum, the queue's state, the queue's maximum, the user's maximum.
   *
   * @param systemApplications applications in the whole scheduler, pending and running
   * @param queueApplications applications in this leaf
   * @param userApplications applications of {@code user} in this leaf
   */
  public static Admission admit(CapacityTree tree, String leafPath, String appId, String user,
      int systemApplications, int queueApplications, int userApplications) {
    leaf(tree, leafPath);
    if (systemApplications >= tree.settings().maximumSystemApplications()) {
      return new Admission(false,
          "Maximum system application limit reached,cannot accept submission of application: " + appId);
    }
    if (tree.queue(leafPath).state() != CapacityQueueState.RUNNING) {
      return new Admission(false,
          "Queue " + leafPath + " is STOPPED. Cannot accept submission of application: " + appId);
    }
    if (queueApplications >= maximumApplications(tree, leafPath)) {
      return new Admission(false, "Queue " + leafPath + " already has " + queueApplications
          + " applications, cannot accept submission of application: " + appId);
    }
    if (userApplications >= maximumApplicationsPerUser(tree, leafPath)) {
      return new Admission(false, "Queue " + leafPath + " already has " + userApplications
          + " applications from user " + user + " cannot accept submission of application: " + appId);
    }
    return new Admission(true, "within the scheduler's, the queue's and the user's maximum applications");
  }

  /** An application accepted into the leaf and not yet activated, with the resource of its AM. */
  public record PendingApp(String appId, String user, int priority, Resource amResource) {}

  /**
   * An activated application of the leaf.
   *
   * @param asking whether it still asks for containers (its AM's or others)
   */
  public record ActiveApp(String appId, String user, Resource amResource, boolean asking) {}

  /**
   * The outcome for one pending application.
   *
   * @param diagnostics Hadoop's AM diagnostics for it, without the leading timestamp
   */
  public record Activation(String appId, String user, boolean activated, String reason, String diagnostics) {}

  /** @param amUsed the leaf's AM usage once the activated applications are counted */
  public record ActivationPlan(AmLimits limits, List<Activation> activations, Resource amUsed) {
    public List<String> activated() {
      return activations.stream().filter(Activation::activated).map(Activation::appId).toList();
    }
  }

  /**
   * Which pending applications start, as Hadoop's {@code activateApplications}: higher priority
   * first, then in the order given (submission order). An application starts when its AM fits in
   * the queue's AM limit beside the AMs already running, and in its user's AM limit beside the
   * user's; one that does not fit waits without holding back those after it. When the queue runs no
   * application (or no AM), one starts whatever the limits say. An empty cluster starts none.
   *
   * <p>The user AM limit is shared by the users whose activated applications ask for containers
   * and the users whose applications all wait. Hadoop counts a waiting user from its next
   * scheduling pass on, so in the pass its first application's submission triggers, that user is
   * not counted yet: {@code submittedAppId} names that application (null for other passes).
   *
   * <p>Unlike Hadoop, which computes the user AM limit once per pass with the weight of the first
   * user it checks, each user's limit here uses its own weight; without user weights the two agree.
   */
  public static ActivationPlan activate(CapacityTree tree, String leafPath, Resource currentLimit,
      List<ActiveApp> active, List<PendingApp> pending, String submittedAppId) {
    CapacityQueueSpec spec = leaf(tree, leafPath);
    ResourceMath rc = tree.resourceMath();
    Resource cluster = tree.cluster();

    Resource amUsed = Resource.NONE;
    Map<String, Resource> userAmUsed = new HashMap<>();
    Set<String> asking = new HashSet<>();
    Set<String> usersActive = new HashSet<>();
    for (ActiveApp a : active) {
      amUsed = amUsed.plus(a.amResource());
      userAmUsed.merge(a.user(), a.amResource(), Resource::plus);
      usersActive.add(a.user());
      if (a.asking()) asking.add(a.user());
    }
    Set<String> onlyPending = new HashSet<>();
    for (PendingApp p : pending) {
      if (!usersActive.contains(p.user()) && !p.appId().equals(submittedAppId)) onlyPending.add(p.user());
    }
    AmLimits limits = amLimits(tree, leafPath, currentLimit, asking.size() + onlyPending.size());

    List<PendingApp> ordered = new ArrayList<>(pending);
    ordered.sort(Comparator.comparingInt(PendingApp::priority).reversed());
    List<Activation> out = new ArrayList<>();
    boolean clusterEmpty = !rc.greaterThan(cluster, cluster, Resource.NONE);
    int running = active.size();
    for (PendingApp app : ordered) {
      Resource userLimit = userAmLimit(tree, limits, spec.userWeight(app.user()));
      Resource userUsed = userAmUsed.getOrDefault(app.user(), Resource.NONE);
      if (clusterEmpty) {
        out.add(held(app, CLUSTER_RESOURCE_EMPTY, limits, userLimit, amUsed));
        continue;
      }
      boolean mayOverride = running < 1 || rc.lessThanOrEqual(cluster, amUsed, Resource.NONE);
      String note = "its AM " + app.amResource() + " fits in the queue's AM limit " + limits.queueLimit()
          + " beside " + amUsed + " and in the user's " + userLimit + " beside " + userUsed;
      if (!rc.fitsIn(app.amResource().plus(amUsed), limits.queueLimit())) {
        if (!mayOverride) {
          out.add(held(app, QUEUE_AM_RESOURCE_LIMIT_EXCEEDED, limits, userLimit, amUsed));
          continue;
        }
        note = LIMIT_TOO_LOW;
      }
      if (!rc.fitsIn(app.amResource().plus(userUsed), userLimit)) {
        if (!mayOverride) {
          out.add(held(app, USER_AM_RESOURCE_LIMIT_EXCEEDED, limits, userLimit, amUsed));
          continue;
        }
        note = LIMIT_TOO_LOW;
      }
      running++;
      amUsed = amUsed.plus(app.amResource());
      userAmUsed.merge(app.user(), app.amResource(), Resource::plus);
      out.add(new Activation(app.appId(), app.user(), true, note, ACTIVATED));
    }
    return new ActivationPlan(limits, out, amUsed);
  }

  private static Activation held(PendingApp app, String reason, AmLimits limits, Resource userLimit,
      Resource amUsed) {
    String diagnostics = NOT_YET_ACTIVATED + reason + " Details : AM Partition = " + DEFAULT_PARTITION + "; "
        + "AM Resource Request = " + app.amResource() + "; "
        + "Queue Resource Limit for AM = " + limits.queueLimit() + "; "
        + "User AM Resource Limit of the queue = " + userLimit + "; "
        + "Queue AM Resource Usage = " + amUsed + "; ";
    return new Activation(app.appId(), app.user(), false, reason.trim(), diagnostics);
  }

  private static CapacityQueueSpec leaf(CapacityTree tree, String path) {
    CapacityQueueSpec spec = tree.spec(path);
    if (!spec.isLeaf()) throw new IllegalArgumentException(path + " is not a leaf queue");
    return spec;
  }
}
