package dev.bobbin.config.capacity;

import dev.bobbin.config.SettingsException;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * Rules that span queues, as Hadoop's capacity scheduler checks them when it loads or refreshes the
 * queues: a parent's children sum to 100 % (within Hadoop's 0.05 %), use one form (percentages or
 * absolute resources) among themselves and with their parent, and are not guaranteed more than
 * their parent; plus a maximum capacity below the capacity, which Hadoop 3.4 no longer refuses but
 * which leaves the guarantee unreachable.
 */
final class TreeChecks {
  /** Hadoop's tolerance on the sum of the children's capacities, as a fraction. */
  static final float PRECISION = 0.0005f;

  private final ResourceCalculator calculator;
  private final UnaryOperator<String> where;

  private TreeChecks(ResourceCalculator calculator, UnaryOperator<String> where) {
    this.calculator = calculator;
    this.where = where;
  }

  /** @param where the name the user wrote for a Hadoop key */
  static void check(CapacityQueue root, SchedulerWideSettings wide, UnaryOperator<String> where) {
    new TreeChecks(wide.resourceCalculator(), where).walk(root, null);
  }

  private void walk(CapacityQueue q, CapacityQueue parent) {
    if (parent != null) maximumAgainstCapacity(q, parent);
    if (!q.isLeaf()) children(q);
    q.children().forEach(c -> walk(c, q));
  }

  private void maximumAgainstCapacity(CapacityQueue q, CapacityQueue parent) {
    String key = key(q, QueueKey.MAXIMUM_CAPACITY.hadoop);
    QueueCapacity cap = q.capacity();
    QueueCapacity max = q.maximumCapacity();
    if (cap instanceof QueueCapacity.Percentage c) {
      if (max instanceof QueueCapacity.Percentage m && m.percent() < c.percent()) {
        throw new SettingsException(key, "maximum-capacity of " + q.path() + " (" + m + ") is below its capacity (" + c + ")");
      }
      if (max instanceof QueueCapacity.Absolute) throw mixedInQueue(q, key);
    } else if (cap instanceof QueueCapacity.Absolute c) {
      if (max instanceof QueueCapacity.Absolute m && exceeds(c, m)) {
        throw new SettingsException(key, "maximum-capacity of " + q.path() + " (" + m + ") is below its capacity (" + c + ")");
      }
      if (max instanceof QueueCapacity.Percentage && !max.equals(QueueCapacity.UNLIMITED)) throw mixedInQueue(q, key);
    }
    if (q.maximumCapacity() instanceof QueueCapacity.Absolute m
        && parent.maximumCapacity() instanceof QueueCapacity.Absolute pm
        && exceeds(m, pm)) {
      throw new SettingsException(key, "maximum-capacity of " + q.path() + " (" + m + ") is above its parent's (" + pm + ")");
    }
  }

  private SettingsException mixedInQueue(CapacityQueue q, String key) {
    return new SettingsException(
        key, q.path() + " gives capacity and maximum-capacity in different forms (" + q.capacity() + ", " + q.maximumCapacity()
            + "); mixing percentages and absolute resources in one queue is not supported yet");
  }

  private void children(CapacityQueue parent) {
    String key = key(parent, QueueKey.QUEUES);
    List<CapacityQueue> kids = parent.children();
    boolean absolute = kids.stream().anyMatch(c -> c.capacity() instanceof QueueCapacity.Absolute);
    // As in Hadoop, a child at 0 % does not count as using percentages.
    boolean percent = kids.stream().anyMatch(c -> c.capacity() instanceof QueueCapacity.Percentage pc && pc.percent() > 0);
    if (absolute && percent) {
      throw new SettingsException(
          key, "the children of " + parent.path() + " mix percentages and absolute resources (" + describe(kids)
              + "); siblings must all use one form");
    }
    boolean parentAbsolute = parent.capacity() instanceof QueueCapacity.Absolute;
    if (!parent.path().isRoot() && absolute != parentAbsolute) {
      throw new SettingsException(
          key, parent.path() + " (" + parent.capacity() + ") and its children (" + describe(kids)
              + ") must all use absolute resources when any of them does");
    }
    if (absolute) {
      absoluteSum(parent, kids, key);
    } else {
      percentSum(parent, kids, key);
    }
  }

  private void absoluteSum(CapacityQueue parent, List<CapacityQueue> kids, String key) {
    if (!(parent.capacity() instanceof QueueCapacity.Absolute p)) return; // root: checked against the cluster at run time
    long mb = 0;
    long vcores = 0;
    for (CapacityQueue c : kids) {
      QueueCapacity.Absolute a = (QueueCapacity.Absolute) c.capacity();
      mb += a.memoryMb();
      vcores += a.vcores();
    }
    QueueCapacity.Absolute sum = new QueueCapacity.Absolute(mb, (int) Math.min(Integer.MAX_VALUE, vcores));
    if (exceeds(sum, p)) {
      throw new SettingsException(
          key, "the children of " + parent.path() + " are guaranteed " + sum + " together, more than " + parent.path() + "'s " + p);
    }
  }

  private void percentSum(CapacityQueue parent, List<CapacityQueue> kids, String key) {
    float sum = 0f;
    for (CapacityQueue c : kids) sum += ((QueueCapacity.Percentage) c.capacity()).fraction();
    float parentFraction = parent.capacity() instanceof QueueCapacity.Percentage pp ? pp.fraction() : 1f;
    String names = kids.stream().map(c -> c.path().name()).collect(Collectors.joining(", "));
    if (Math.abs(1 - sum) > PRECISION) {
      if (Math.abs(sum) > PRECISION) {
        throw new SettingsException(
            key, "the capacities of " + parent.path() + "'s children (" + names + ") sum to " + percent(sum)
                + ", not 100 (Hadoop allows 0.05 either way)");
      }
      if (Math.abs(parentFraction) > PRECISION && !parent.allowZeroCapacitySum()) {
        throw new SettingsException(
            key, "the capacities of " + parent.path() + "'s children (" + names + ") are all 0 while " + parent.path()
                + " has a capacity; set allow-zero-capacity-sum on " + parent.path() + " to allow it");
      }
    } else if (parentFraction <= 0f && !parent.allowZeroCapacitySum()) {
      throw new SettingsException(
          key, parent.path() + " has capacity 0 but its children's capacities (" + names
              + ") sum to 100; give it a capacity or set allow-zero-capacity-sum on it");
    }
  }

  /**
   * Whether a is more than b as the scheduler compares them: memory alone by default, any resource
   * with the dominant calculator (whose exact order needs the cluster's size, which the
   * configuration does not know).
   */
  private boolean exceeds(QueueCapacity.Absolute a, QueueCapacity.Absolute b) {
    if (a.memoryMb() > b.memoryMb()) return true;
    return calculator == ResourceCalculator.DOMINANT && a.vcores() > b.vcores();
  }

  /** A sum as a person would write it: 99.9, not 99.899994. */
  private static String percent(float fraction) {
    return new java.math.BigDecimal(Float.toString(fraction * 100)).setScale(4, java.math.RoundingMode.HALF_UP)
        .stripTrailingZeros().toPlainString();
  }

  private static String describe(List<CapacityQueue> kids) {
    return kids.stream().map(c -> c.path().name() + ": " + c.capacity()).collect(Collectors.joining(", "));
  }

  private String key(CapacityQueue q, String suffix) {
    return where.apply(QueueKey.of(q.path().full(), suffix));
  }
}
