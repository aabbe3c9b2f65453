package dev.bobbin.core.policy.capacity;

import dev.bobbin.core.policy.capacity.QueueCapacity.Absolute;
import dev.bobbin.core.policy.capacity.QueueCapacity.Percent;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.Objects;

/**
 * One queue of the capacity scheduler's tree, as configured, with inherited values already resolved
 * (user weights, maximum-am-resource-percent, disable-preemption and the ordering of parents are the
 * parent's when the queue does not set them). The root's capacity is the whole cluster whatever
 * {@code capacity} says, as in Hadoop.
 *
 * <p>A tree that Hadoop would refuse cannot be built: children whose percentages add up to neither
 * 100 nor 0, siblings mixing percentages with absolute resources, an absolute parent with percentage
 * children, a maximum in another form than the capacity (which Hadoop would ignore), a leaf ordered
 * like a parent. A percentage maximum is of the parent's maximum and a capacity of the parent's
 * capacity, so a maximum below the capacity in percent can still be above it in absolute terms;
 * like Hadoop, the tree does not compare them.
 *
 * @param path full dotted path: {@code root}, {@code root.a}, {@code root.a.a1}
 * @param maximumCapacity {@link QueueCapacity#UNLIMITED} when not set
 * @param maximumAllocation the largest container the queue grants; {@code null} takes the parent's
 *     (the root's is the scheduler's {@code maximum-allocation})
 * @param minimumUserLimitPercent {@code minimum-user-limit-percent}, 100 by default
 * @param userLimitFactor {@code user-limit-factor}, 1 by default; -1 lifts the user limit to the
 *     queue's maximum
 * @param userWeights {@code user-settings.<user>.weight}; users not named weigh 1
 * @param maximumApplications {@code maximum-applications}; {@code null} derives it from the
 *     scheduler's limit and the queue's absolute capacity
 * @param maximumAmResourcePercent {@code maximum-am-resource-percent} as a fraction (0.1 is 10 %)
 */
public record CapacityQueueSpec(
    String path,
    QueueCapacity capacity,
    QueueCapacity maximumCapacity,
    CapacityQueueState state,
    Resource maximumAllocation,
    OrderingPolicy orderingPolicy,
    int priority,
    float minimumUserLimitPercent,
    float userLimitFactor,
    Map<String, Float> userWeights,
    Integer maximumApplications,
    float maximumAmResourcePercent,
    boolean disablePreemption,
    int defaultApplicationPriority,
    List<CapacityQueueSpec> children) {

  /** Hadoop's tolerance on children's percentages adding up to 100. */
  static final float SUM_PRECISION = 0.0005f;

  public CapacityQueueSpec {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(capacity, "capacity of " + path);
    Objects.requireNonNull(maximumCapacity, "maximum-capacity of " + path);
    Objects.requireNonNull(state, "state of " + path);
    Objects.requireNonNull(orderingPolicy, "ordering-policy of " + path);
    userWeights = Collections.unmodifiableMap(new TreeMap<>(userWeights));
    children = List.copyOf(children);
    if (path.isBlank() || path.startsWith(".") || path.endsWith(".") || path.contains("..")) {
      throw new IllegalArgumentException("'" + path + "' is not a queue path");
    }
    if (children.isEmpty() != orderingPolicy.forLeaf()) {
      throw new IllegalArgumentException(path + ": ordering-policy " + orderingPolicy.configName() + " is for "
          + (orderingPolicy.forLeaf() ? "leaf" : "parent") + " queues and " + path + " is a "
          + (children.isEmpty() ? "leaf" : "parent"));
    }
    if (capacity instanceof Percent && maximumCapacity instanceof Absolute
        || capacity instanceof Absolute && maximumCapacity instanceof Percent p && p.value() != 100f) {
      throw new IllegalArgumentException(path + ": maximum-capacity " + maximumCapacity
          + " must be given in the same form as capacity " + capacity);
    }
    if (children.isEmpty()) validateUserWeights(path, minimumUserLimitPercent, userWeights);
    validateChildren(path, capacity, children);
  }

  public boolean isLeaf() {
    return children.isEmpty();
  }

  public boolean isRoot() {
    return !path.contains(".");
  }

  /** The last part of the path. */
  public String name() {
    return path.substring(path.lastIndexOf('.') + 1);
  }

  public float userWeight(String user) {
    return userWeights.getOrDefault(user, 1f);
  }

  /** A builder with Hadoop's defaults: 0 % capacity, no maximum, RUNNING, FIFO leaf or utilization parent. */
  public static Builder builder(String path) {
    return new Builder(path);
  }

  public Builder toBuilder() {
    return new Builder(this);
  }

  private static void validateUserWeights(String path, float userLimit, Map<String, Float> weights) {
    float limit = Math.min(100f, userLimit);
    weights.forEach((user, weight) -> {
      if (weight < 0f || weight > 100f / limit) {
        throw new IllegalArgumentException(path + ": user-settings." + user + ".weight " + weight
            + " must be between 0 and 100 / minimum-user-limit-percent (" + 100f / limit + ")");
      }
    });
  }

  private static void validateChildren(String path, QueueCapacity capacity, List<CapacityQueueSpec> children) {
    boolean absolute = false;
    boolean percent = false;
    float sum = 0f;
    for (CapacityQueueSpec c : children) {
      if (!c.path.equals(path + "." + c.name()) || c.name().isEmpty()) {
        throw new IllegalArgumentException(c.path + " cannot be a child of " + path);
      }
      if (c.capacity instanceof Absolute) absolute = true;
      if (c.capacity instanceof Percent p) {
        percent |= p.value() > 0f;
        sum += p.value() / 100f;
      }
    }
    if (children.isEmpty()) return;
    if (absolute && percent) {
      throw new IllegalArgumentException("the children of " + path
          + " mix percentages and absolute resources in capacity; use one or the other");
    }
    boolean root = !path.contains(".");
    if (!root && absolute != capacity instanceof Absolute) {
      throw new IllegalArgumentException(path + " and its children must all give capacity as absolute resources"
          + " when one of them does");
    }
    if (absolute) return;
    float own = root ? 1f : ((Percent) capacity).value() / 100f;
    boolean sumIsWhole = Math.abs(1f - sum) <= SUM_PRECISION;
    boolean sumIsZero = Math.abs(sum) <= SUM_PRECISION;
    if (!sumIsWhole && (!sumIsZero || own > SUM_PRECISION) || sumIsWhole && own <= 0f) {
      throw new IllegalArgumentException("the capacities of the children of " + path + " add up to " + sum * 100f
          + "%; they must add up to 100% (or to 0% under a queue of 0%)");
    }
  }

  /** Builds a {@link CapacityQueueSpec}; unset values are Hadoop's defaults. */
  public static final class Builder {
    private final String path;
    private QueueCapacity capacity = QueueCapacity.percent(0f);
    private QueueCapacity maximumCapacity = QueueCapacity.UNLIMITED;
    private CapacityQueueState state = CapacityQueueState.RUNNING;
    private Resource maximumAllocation;
    private OrderingPolicy orderingPolicy;
    private int priority;
    private float minimumUserLimitPercent = 100f;
    private float userLimitFactor = 1f;
    private Map<String, Float> userWeights = Map.of();
    private Integer maximumApplications;
    private float maximumAmResourcePercent = 0.1f;
    private boolean disablePreemption;
    private int defaultApplicationPriority;
    private List<CapacityQueueSpec> children = new ArrayList<>();

    private Builder(String path) {
      this.path = path;
    }

    private Builder(CapacityQueueSpec s) {
      path = s.path;
      capacity = s.capacity;
      maximumCapacity = s.maximumCapacity;
      state = s.state;
      maximumAllocation = s.maximumAllocation;
      orderingPolicy = s.orderingPolicy;
      priority = s.priority;
      minimumUserLimitPercent = s.minimumUserLimitPercent;
      userLimitFactor = s.userLimitFactor;
      userWeights = s.userWeights;
      maximumApplications = s.maximumApplications;
      maximumAmResourcePercent = s.maximumAmResourcePercent;
      disablePreemption = s.disablePreemption;
      defaultApplicationPriority = s.defaultApplicationPriority;
      children = new ArrayList<>(s.children);
    }

    public Builder capacity(float percent) {
      return capacity(QueueCapacity.percent(percent));
    }

    public Builder capacity(QueueCapacity c) {
      capacity = c;
      return this;
    }

    public Builder maximumCapacity(float percent) {
      return maximumCapacity(QueueCapacity.percent(percent));
    }

    public Builder maximumCapacity(QueueCapacity c) {
      maximumCapacity = c;
      return this;
    }

    public Builder state(CapacityQueueState s) {
      state = s;
      return this;
    }

    public Builder maximumAllocation(Resource r) {
      maximumAllocation = r;
      return this;
    }

    public Builder orderingPolicy(OrderingPolicy p) {
      orderingPolicy = p;
      return this;
    }

    public Builder priority(int p) {
      priority = p;
      return this;
    }

    public Builder minimumUserLimitPercent(float p) {
      minimumUserLimitPercent = p;
      return this;
    }

    public Builder userLimitFactor(float f) {
      userLimitFactor = f;
      return this;
    }

    public Builder userWeights(Map<String, Float> w) {
      userWeights = w;
      return this;
    }

    public Builder maximumApplications(Integer n) {
      maximumApplications = n;
      return this;
    }

    public Builder maximumAmResourcePercent(float f) {
      maximumAmResourcePercent = f;
      return this;
    }

    public Builder disablePreemption(boolean d) {
      disablePreemption = d;
      return this;
    }

    public Builder defaultApplicationPriority(int p) {
      defaultApplicationPriority = p;
      return this;
    }

    public Builder children(List<CapacityQueueSpec> c) {
      children = new ArrayList<>(c);
      return this;
    }

    public Builder child(CapacityQueueSpec c) {
      children.add(c);
      return this;
    }

    public CapacityQueueSpec build() {
      OrderingPolicy policy = orderingPolicy != null ? orderingPolicy
          : children.isEmpty() ? OrderingPolicy.FIFO : OrderingPolicy.UTILIZATION;
      return new CapacityQueueSpec(path, capacity, maximumCapacity, state, maximumAllocation, policy, priority,
          minimumUserLimitPercent, userLimitFactor, userWeights, maximumApplications, maximumAmResourcePercent,
          disablePreemption, defaultApplicationPriority, children);
    }
  }
}
