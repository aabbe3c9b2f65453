package dev.bobbin.core.policy.fair;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Splits an amount of one resource type among claimants by weight, each kept within its min and
 * max. This is the algorithm of Hadoop's {@code ComputeFairShares}: find the weight-to-resource
 * ratio R for which the sum of {@code clamp(R × weight, min, max)} equals the amount.
 *
 * <p>As in Hadoop, a claimant with max 0 gets 0, one with weight 0 gets exactly its min (it takes
 * no part in the search), and the amount shared by the others is capped at the sum of their maxes,
 * so some of the amount may stay unassigned.
 *
 * <p>Two deliberate differences. Hadoop truncates each share at the upper end of its search
 * bracket, so the shares may add up to more than the amount (by up to one unit per claimant); here
 * each share is rounded down and the units left over go to the largest remainders, so the shares
 * never add up to more than the amount, and add up to exactly the amount whenever the maxes allow.
 * And where the mins alone exceed the amount Hadoop hands out every min anyway (more than there
 * is); here the amount is divided in proportion to the mins instead.
 */
final class WeightedSplit {
  private static final int SEARCH_STEPS = 200;

  private WeightedSplit() {}

  /** One claimant's terms for one resource type; a max below the min counts as the min. */
  record Claim(double weight, long min, long max) {
    static Claim of(double weight, long min, long max) {
      return new Claim(weight, min, max);
    }
  }

  static long[] split(List<Claim> claims, long amount) {
    int n = claims.size();
    long[] out = new long[n];
    if (n == 0) return out;
    long total = Math.max(0, amount);
    long[] min = new long[n];
    long[] max = new long[n];
    boolean[] flexible = new boolean[n];
    long floorSum = 0;
    long fixedSum = 0;
    long flexibleMaxSum = 0;
    for (int i = 0; i < n; i++) {
      Claim c = claims.get(i);
      min[i] = Math.max(0, c.min());
      max[i] = Math.max(c.max(), min[i]);
      if (max[i] <= 0) {
        out[i] = 0;
      } else if (!(c.weight() > 0)) {
        out[i] = min[i];
        fixedSum = saturatedAdd(fixedSum, min[i]);
      } else {
        flexible[i] = true;
        flexibleMaxSum = saturatedAdd(flexibleMaxSum, max[i]);
      }
      floorSum = saturatedAdd(floorSum, flexible[i] ? min[i] : out[i]);
    }
    if (floorSum > total) return proportionalToFloors(flexible, min, out, floorSum, total);

    long target = Math.min(total - fixedSum, flexibleMaxSum);
    double ratio = searchRatio(claims, flexible, min, max, target);
    double[] exact = new double[n];
    long assigned = 0;
    for (int i = 0; i < n; i++) {
      if (!flexible[i]) continue;
      exact[i] = clamp(ratio * claims.get(i).weight(), min[i], max[i]);
      out[i] = Math.max(min[i], Math.min(max[i], (long) Math.floor(exact[i])));
      assigned = saturatedAdd(assigned, out[i]);
    }
    hand(out, exact, flexible, min, max, target - assigned);
    return out;
  }

  /** The smallest ratio (to search precision) at which the flexible claimants take {@code target}. */
  private static double searchRatio(
      List<Claim> claims, boolean[] flexible, long[] min, long[] max, long target) {
    double hi = 1.0;
    while (taken(hi, claims, flexible, min, max) < target && hi < Double.MAX_VALUE / 4) hi *= 2.0;
    double lo = 0.0;
    for (int step = 0; step < SEARCH_STEPS; step++) {
      double mid = (lo + hi) / 2.0;
      if (mid <= lo || mid >= hi) break;
      if (taken(mid, claims, flexible, min, max) < target) lo = mid;
      else hi = mid;
    }
    return hi;
  }

  private static double taken(double ratio, List<Claim> claims, boolean[] flexible, long[] min, long[] max) {
    double sum = 0;
    for (int i = 0; i < flexible.length; i++) {
      if (flexible[i]) sum += clamp(ratio * claims.get(i).weight(), min[i], max[i]);
    }
    return sum;
  }

  private static long[] proportionalToFloors(
      boolean[] flexible, long[] min, long[] fixed, long floorSum, long total) {
    int n = min.length;
    long[] out = new long[n];
    double[] exact = new double[n];
    boolean[] takes = new boolean[n];
    long[] floor = new long[n];
    long assigned = 0;
    for (int i = 0; i < n; i++) {
      floor[i] = flexible[i] ? min[i] : fixed[i];
      takes[i] = floor[i] > 0;
      exact[i] = (double) total * floor[i] / floorSum;
      out[i] = Math.min(floor[i], (long) Math.floor(exact[i]));
      assigned += out[i];
    }
    hand(out, exact, takes, new long[n], floor, total - assigned);
    return out;
  }

  /**
   * Gives (or, if {@code units} is negative, takes back) single units: first to the claimants with
   * the largest fractional remainders, never beyond a max nor below a min.
   */
  private static void hand(long[] out, double[] exact, boolean[] eligible, long[] min, long[] max, long units) {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < out.length; i++) if (eligible[i]) order.add(i);
    order.sort(Comparator.comparingDouble((Integer i) -> exact[i] - Math.floor(exact[i])).reversed()
        .thenComparingInt(i -> i));
    boolean moved = true;
    while (units > 0 && moved) {
      moved = false;
      for (int i : order) {
        if (units == 0) break;
        if (out[i] < max[i]) {
          out[i]++;
          units--;
          moved = true;
        }
      }
    }
    while (units < 0 && moved) {
      moved = false;
      for (int k = order.size() - 1; k >= 0 && units < 0; k--) {
        int i = order.get(k);
        if (out[i] > min[i]) {
          out[i]--;
          units++;
          moved = true;
        }
      }
    }
  }

  private static double clamp(double v, long min, long max) {
    return Math.min(Math.max(v, (double) min), (double) max);
  }

  private static long saturatedAdd(long a, long b) {
    long r = a + b;
    return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
  }
}
