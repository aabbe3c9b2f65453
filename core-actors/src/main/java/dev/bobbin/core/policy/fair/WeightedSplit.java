package dev.bobbin.core.policy.fair;

import java.util.List;

/**
 * Splits an amount of one resource type among claimants by weight, each kept within its min and
 * max: Hadoop's {@code ComputeFairShares}, reproduced to the unit, quirks included, so that every
 * share Bobbin reports is the one Hadoop's FairScheduler would report on the same inputs.
 *
 * <p>The rule: find the weight-to-resource ratio R at which the claimants' shares
 * {@code (long) min(max(weight × R, min), max)} add up to the amount. Hadoop finds R with a
 * bounded search, and the search's limits show in the numbers:
 *
 * <ul>
 *   <li>Fixed claimants first, in this order: a max of 0 or less gets 0; an inactive claimant (for
 *       instantaneous shares) gets 0; a weight of 0 or less gets its min (not limited by what is
 *       left). What they take is subtracted from the amount before the search; what is left, capped
 *       by the other claimants' summed maxes, is the target.
 *   <li>The upper bound of R starts at 1 and doubles until the shares reach the target. Then at most
 *       25 halvings of [0, bound]; a halving whose shares equal the target exactly ends the search
 *       there.
 *   <li>Every share is taken at the upper end of the final bracket and truncated. So shares may add
 *       up to more than the amount (1025 split two ways is 513 + 513), and on large amounts the
 *       bracket is wide enough to show (100,000,000 split 10 : 1 gives 90,909,095 + 9,090,909).
 *   <li>Mins are never scaled down: when the mins alone exceed the amount the search falls towards R
 *       = 0 and every claimant gets its min, more than there is.
 *   <li>Weights are single-precision floats, as Hadoop stores them, so a weight of 0.1 is
 *       0.100000001490116.
 * </ul>
 */
final class WeightedSplit {
  private static final int SEARCH_HALVINGS = 25;

  private WeightedSplit() {}

  /**
   * One claimant's terms for one resource type.
   *
   * @param max Hadoop's max share: already raised to the min where it was below it
   * @param active false for a queue without runnable applications in an instantaneous split
   */
  record Claim(float weight, long min, long max, boolean active) {
    static Claim of(double weight, long min, long max) {
      return new Claim((float) weight, min, max, true);
    }
  }

  static long[] split(List<Claim> claims, long amount) {
    int n = claims.size();
    long[] out = new long[n];
    boolean[] searched = new boolean[n];
    long fixedTaken = 0;
    long maxSum = 0;
    boolean anySearched = false;
    for (int i = 0; i < n; i++) {
      Claim c = claims.get(i);
      long fixed = fixedShare(c);
      if (fixed >= 0) {
        out[i] = fixed;
        fixedTaken = saturatedAdd(fixedTaken, fixed);
      } else {
        searched[i] = true;
        anySearched = true;
        maxSum = saturatedAdd(maxSum, c.max());
      }
    }
    if (!anySearched) return out;

    long target = Math.min(maxSum, Math.max(amount - fixedTaken, 0));
    double ratio = searchRatio(claims, searched, target);
    for (int i = 0; i < n; i++) {
      if (searched[i]) out[i] = share(claims.get(i), ratio);
    }
    return out;
  }

  /** The share of a claimant that takes no part in the search, or -1 for one that does. */
  private static long fixedShare(Claim c) {
    if (c.max() <= 0) return 0;
    if (!c.active()) return 0;
    if (c.weight() <= 0) return Math.max(c.min(), 0);
    return -1;
  }

  /** The upper end of the bracket the bounded search ends with. */
  private static double searchRatio(List<Claim> claims, boolean[] searched, long target) {
    double upper = 1.0;
    while (taken(upper, claims, searched) < target) upper *= 2.0;
    double lower = 0;
    for (int step = 0; step < SEARCH_HALVINGS; step++) {
      double mid = (lower + upper) / 2.0;
      long used = taken(mid, claims, searched);
      if (used == target) {
        upper = mid;
        break;
      }
      if (used < target) lower = mid;
      else upper = mid;
    }
    return upper;
  }

  private static long taken(double ratio, List<Claim> claims, boolean[] searched) {
    long sum = 0;
    for (int i = 0; i < searched.length; i++) {
      if (!searched[i]) continue;
      sum = saturatedAdd(sum, share(claims.get(i), ratio));
      if (sum == Long.MAX_VALUE) break;
    }
    return sum;
  }

  private static long share(Claim c, double ratio) {
    double s = c.weight() * ratio;
    s = Math.max(s, c.min());
    s = Math.min(s, c.max());
    return (long) s;
  }

  private static long saturatedAdd(long a, long b) {
    long r = a + b;
    return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
  }
}
