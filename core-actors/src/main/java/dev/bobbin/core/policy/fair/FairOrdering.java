package dev.bobbin.core.policy.fair;

import dev.bobbin.protocol.Resource;
import java.util.Comparator;

/**
 * Who is offered a node first: the comparators of Hadoop's FairSharePolicy, DominantResourceFairness
 * Policy and FifoPolicy, over queues (ordered by their parent's policy) or applications (ordered by
 * their leaf's policy). Smaller means more deserving.
 */
final class FairOrdering {
  private FairOrdering() {}

  /**
   * A queue or application as a comparator sees it. Queues have start time 0 and priority 0;
   * applications weight 1, no min share, and their submission time and priority.
   */
  record Contender(
      String name, long startTime, int priority, double weight, Resource usage, Resource minShare,
      Resource demand) {}

  /** How a parent orders its children; FIFO, which Hadoop allows only on leaves, orders as FAIR. */
  static Comparator<Contender> forQueues(FairPolicyKind parentPolicy, Resource cluster) {
    return parentPolicy == FairPolicyKind.DRF ? drf(cluster) : FAIR;
  }

  /** How a leaf orders its applications. */
  static Comparator<Contender> forApps(FairPolicyKind leafPolicy, Resource cluster) {
    return switch (leafPolicy) {
      case FAIR -> FAIR;
      case DRF -> drf(cluster);
      case FIFO -> FIFO;
    };
  }

  /** Whether a contender is below its min share (capped by its demand) in the FAIR sense. */
  static boolean needyForMinShare(Contender c) {
    return c.usage().memory() < minByMemory(c.minShare(), c.demand()).memory();
  }

  private static final Comparator<Contender> TIE_BREAK =
      Comparator.comparingLong(Contender::startTime).thenComparing(Contender::name);

  /**
   * Memory only. Contenders with no demand go last; then those below their min share (capped by
   * demand) first, among them the lowest usage-to-min-share ratio; then the lowest usage-to-weight
   * ratio, where a zero weight loses to any positive one and two zero weights compare usage.
   */
  static final Comparator<Contender> FAIR = ((Comparator<Contender>) FairOrdering::compareFair).thenComparing(TIE_BREAK);

  /** Priority (higher first), then submission time, then name, as Hadoop's FifoComparator. */
  static final Comparator<Contender> FIFO =
      Comparator.comparingInt(Contender::priority).reversed().thenComparing(TIE_BREAK);

  private static int compareFair(Contender a, Contender b) {
    boolean aIdle = isNone(a.demand());
    boolean bIdle = isNone(b.demand());
    if (aIdle && b.demand().memory() > 0) return 1;
    if (bIdle && a.demand().memory() > 0) return -1;

    boolean aNeedy = needyForMinShare(a);
    boolean bNeedy = needyForMinShare(b);
    if (aNeedy != bNeedy) return aNeedy ? -1 : 1;
    if (aNeedy) {
      return Double.compare(minShareRatio(a), minShareRatio(b));
    }
    double wa = a.weight();
    double wb = b.weight();
    if (wa > 0 && wb > 0) return Double.compare(a.usage().memory() / wa, b.usage().memory() / wb);
    if (wa == wb) return Long.compare(a.usage().memory(), b.usage().memory());
    return Double.compare(-wa, -wb);
  }

  private static double minShareRatio(Contender c) {
    long min = Math.max(minByMemory(c.minShare(), c.demand()).memory(), 1);
    return (double) c.usage().memory() / min;
  }

  /**
   * Dominant resource fairness. The dominant resource is the one with the larger share of the
   * cluster (memory on a tie). A contender is needy when its usage of its dominant resource is below
   * its min share of it; needy ones go first and compare usage-to-min-share ratios, the others
   * compare usage-to-cluster ratios divided by weight; both compare the dominant resource first and
   * the other one second. A zero weight loses to any positive one.
   *
   * <p>Not mirrored: Hadoop's two-resource comparator tests the second contender's neediness with the
   * first one's usage, a slip this does not copy.
   */
  static Comparator<Contender> drf(Resource cluster) {
    return ((Comparator<Contender>) (a, b) -> compareDrf(a, b, cluster)).thenComparing(TIE_BREAK);
  }

  private static int compareDrf(Contender a, Contender b, Resource cluster) {
    double[] shareA = {ratio(a.usage().memory(), cluster.memory()), ratio(a.usage().vCores(), cluster.vCores())};
    double[] shareB = {ratio(b.usage().memory(), cluster.memory()), ratio(b.usage().vCores(), cluster.vCores())};
    int domA = shareA[1] > shareA[0] ? 1 : 0;
    int domB = shareB[1] > shareB[0] ? 1 : 0;
    boolean aNeedy = component(a.usage(), domA) < component(a.minShare(), domA);
    boolean bNeedy = component(b.usage(), domB) < component(b.minShare(), domB);
    if (aNeedy != bNeedy) return aNeedy ? -1 : 1;
    double[] ra;
    double[] rb;
    if (aNeedy) {
      ra = new double[] {ratio(a.usage().memory(), a.minShare().memory()), ratio(a.usage().vCores(), a.minShare().vCores())};
      rb = new double[] {ratio(b.usage().memory(), b.minShare().memory()), ratio(b.usage().vCores(), b.minShare().vCores())};
    } else {
      ra = weighted(shareA, a.weight());
      rb = weighted(shareB, b.weight());
    }
    int res = Double.compare(ra[domA], rb[domB]);
    return res != 0 ? res : Double.compare(ra[1 - domA], rb[1 - domB]);
  }

  private static double[] weighted(double[] shares, double weight) {
    if (!(weight > 0)) return new double[] {Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY};
    return new double[] {shares[0] / weight, shares[1] / weight};
  }

  /** {@code x / of}, reading a zero denominator as "infinitely much" for x > 0 and "none" for x = 0. */
  private static double ratio(long x, long of) {
    if (of <= 0) return x > 0 ? Double.POSITIVE_INFINITY : 0.0;
    return (double) x / of;
  }

  private static long component(Resource r, int i) {
    return i == 0 ? r.memory() : r.vCores();
  }

  /** Hadoop's {@code Resources.min} under its memory-only calculator: the whole resource with less memory. */
  private static Resource minByMemory(Resource a, Resource b) {
    return a.memory() <= b.memory() ? a : b;
  }

  private static boolean isNone(Resource r) {
    return r.memory() == 0 && r.vCores() == 0;
  }
}
