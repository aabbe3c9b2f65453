package dev.bobbin.core.policy.capacity;

import dev.bobbin.protocol.Resource;

/**
 * The two resource calculators of {@code yarn.scheduler.capacity.resource-calculator}, with
 * Hadoop's arithmetic to the last rounding: the capacity scheduler's limits are products of floats
 * and these roundings, so a limit one rounding apart admits a different container.
 *
 * <p>{@link #DEFAULT} looks at memory only. Like Hadoop's DefaultResourceCalculator, every resource
 * it builds carries one vcore when it has memory and none otherwise, so a user limit it computes
 * reads {@code <memory:4096, vCores:1>}. {@link #DOMINANT} works on memory and vcores and compares
 * by the larger share of the cluster.
 *
 * <p>Rounding steps (the scheduler's minimum allocation) are positive, as the RM requires of its
 * configuration; a zero step leaves a value unrounded.
 */
public enum ResourceMath {
  DEFAULT {
    @Override
    public int compare(Resource cluster, Resource lhs, Resource rhs) {
      return Long.compare(lhs.memory(), rhs.memory());
    }

    @Override
    public float ratio(Resource a, Resource b) {
      return divideSafelyAsFloat(a.memory(), b.memory());
    }

    @Override
    public float divide(Resource cluster, Resource numerator, Resource denominator) {
      return ratio(numerator, denominator);
    }

    @Override
    public Resource divideAndCeil(Resource r, int denominator) {
      return memoryOnly(divideAndCeil(r.memory(), (long) denominator));
    }

    @Override
    public Resource divideAndCeil(Resource r, float denominator) {
      return memoryOnly(divideAndCeil(r.memory(), denominator));
    }

    @Override
    public Resource roundUp(Resource r, Resource step) {
      return memoryOnly(roundUp(r.memory(), step.memory()));
    }

    @Override
    public Resource roundDown(Resource r, Resource step) {
      return memoryOnly(roundDown(r.memory(), step.memory()));
    }

    /** Rounds half up before the step, where the dominant calculator takes the ceiling. */
    @Override
    public Resource multiplyAndNormalizeUp(Resource r, double by, Resource step) {
      return memoryOnly(roundUp((long) (r.memory() * by + 0.5), step.memory()));
    }

    @Override
    public Resource multiplyAndNormalizeDown(Resource r, double by, Resource step) {
      return memoryOnly(roundDown((long) (r.memory() * by), step.memory()));
    }

    @Override
    public Resource normalize(Resource r, Resource minimum, Resource maximum, Resource step) {
      long stepMemory = step.memory() == 0 ? minimum.memory() : step.memory();
      long memory = roundUp(Math.max(r.memory(), minimum.memory()), stepMemory);
      return memoryOnly(Math.min(memory, maximum.memory()));
    }

    @Override
    public Resource normalizeDown(Resource r, Resource step) {
      return roundDown(r, step);
    }

    @Override
    public boolean fitsIn(Resource smaller, Resource bigger) {
      return smaller.memory() <= bigger.memory();
    }

    @Override
    public boolean isInvalidDivisor(Resource r) {
      return r.memory() == 0;
    }
  },

  DOMINANT {
    @Override
    public int compare(Resource cluster, Resource lhs, Resource rhs) {
      if (lhs.equals(rhs)) return 0;
      if (cluster.memory() == 0 && cluster.vCores() == 0) return componentwise(lhs, rhs);
      double[] l = {share(cluster.memory(), lhs.memory()), share(cluster.vCores(), lhs.vCores())};
      double[] r = {share(cluster.memory(), rhs.memory()), share(cluster.vCores(), rhs.vCores())};
      int lDominant = l[1] > l[0] ? 1 : 0;
      int rDominant = r[1] > r[0] ? 1 : 0;
      if (l[lDominant] > r[rDominant]) return 1;
      if (l[lDominant] < r[rDominant]) return -1;
      double lOther = l[1 - lDominant];
      double rOther = r[1 - rDominant];
      return lOther > rOther ? 1 : lOther < rOther ? -1 : 0;
    }

    @Override
    public float ratio(Resource a, Resource b) {
      float memory = divideSafelyAsFloat(a.memory(), b.memory());
      float vCores = divideSafelyAsFloat(a.vCores(), b.vCores());
      return Math.max(Math.max(0f, memory), vCores);
    }

    /**
     * The dominant share of the numerator over the dominant share of the denominator, both taken
     * against the cluster; a resource type the cluster has none of is left out.
     */
    @Override
    public float divide(Resource cluster, Resource numerator, Resource denominator) {
      double num = 0;
      double den = 0;
      long[] c = {cluster.memory(), cluster.vCores()};
      long[] n = {numerator.memory(), numerator.vCores()};
      long[] d = {denominator.memory(), denominator.vCores()};
      for (int i = 0; i < 2; i++) {
        if (c[i] == 0) continue;
        num = Math.max(num, (double) n[i] / c[i]);
        den = Math.max(den, (double) d[i] / c[i]);
      }
      return (float) (num / den);
    }

    @Override
    public Resource divideAndCeil(Resource r, int denominator) {
      return of(divideAndCeil(r.memory(), (long) denominator), divideAndCeil(r.vCores(), (long) denominator));
    }

    @Override
    public Resource divideAndCeil(Resource r, float denominator) {
      return of(divideAndCeil(r.memory(), denominator), divideAndCeil(r.vCores(), denominator));
    }

    @Override
    public Resource roundUp(Resource r, Resource step) {
      return of(roundUp(r.memory(), step.memory()), roundUp(r.vCores(), step.vCores()));
    }

    @Override
    public Resource roundDown(Resource r, Resource step) {
      return of(roundDown(r.memory(), step.memory()), roundDown(r.vCores(), step.vCores()));
    }

    /** Takes the ceiling of the product seen as a float, as Hadoop does, before the step. */
    @Override
    public Resource multiplyAndNormalizeUp(Resource r, double by, Resource step) {
      return of(roundUp((long) Math.ceil((float) (r.memory() * by)), step.memory()),
          roundUp((long) Math.ceil((float) (r.vCores() * by)), step.vCores()));
    }

    @Override
    public Resource multiplyAndNormalizeDown(Resource r, double by, Resource step) {
      return of(roundDown((long) (r.memory() * by), step.memory()),
          roundDown((long) (r.vCores() * by), step.vCores()));
    }

    @Override
    public Resource normalize(Resource r, Resource minimum, Resource maximum, Resource step) {
      long memory = roundUp(Math.max(r.memory(), minimum.memory()), step.memory());
      long vCores = roundUp(Math.max(r.vCores(), minimum.vCores()), step.vCores());
      return of(Math.min(memory, maximum.memory()), Math.min(vCores, maximum.vCores()));
    }

    @Override
    public Resource normalizeDown(Resource r, Resource step) {
      return roundDown(r, step);
    }

    @Override
    public boolean fitsIn(Resource smaller, Resource bigger) {
      return bigger.fits(smaller);
    }

    @Override
    public boolean isInvalidDivisor(Resource r) {
      return r.memory() == 0 || r.vCores() == 0;
    }
  };

  public static final String DEFAULT_CLASS = "org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator";
  public static final String DOMINANT_CLASS = "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator";

  /**
   * The calculator a {@code yarn.scheduler.capacity.resource-calculator} value names: Hadoop's class
   * names, or {@code default} and {@code dominant}.
   */
  public static ResourceMath fromConfig(String value) {
    String v = value == null ? "" : value.trim();
    if (v.equals(DEFAULT_CLASS) || v.equalsIgnoreCase("default")) return DEFAULT;
    if (v.equals(DOMINANT_CLASS) || v.equalsIgnoreCase("dominant")) return DOMINANT;
    throw new IllegalArgumentException("yarn.scheduler.capacity.resource-calculator: unknown resource calculator '"
        + value + "'; expected " + DEFAULT_CLASS + " or " + DOMINANT_CLASS);
  }

  /** Negative, zero or positive as {@code lhs} is less than, equal to or more than {@code rhs}. */
  public abstract int compare(Resource cluster, Resource lhs, Resource rhs);

  /** {@code a} over {@code b}: memory only, or the largest of the per-type ratios. */
  public abstract float ratio(Resource a, Resource b);

  /** {@code numerator} over {@code denominator} in this calculator's terms of the cluster. */
  public abstract float divide(Resource cluster, Resource numerator, Resource denominator);

  public abstract Resource divideAndCeil(Resource r, int denominator);

  /** Each amount over {@code denominator} in float arithmetic, rounded up; 0 when it is 0. */
  public abstract Resource divideAndCeil(Resource r, float denominator);

  public abstract Resource roundUp(Resource r, Resource step);

  public abstract Resource roundDown(Resource r, Resource step);

  public abstract Resource multiplyAndNormalizeUp(Resource r, double by, Resource step);

  public abstract Resource multiplyAndNormalizeDown(Resource r, double by, Resource step);

  /** At least {@code minimum}, rounded up to the step, at most {@code maximum}. */
  public abstract Resource normalize(Resource r, Resource minimum, Resource maximum, Resource step);

  public abstract Resource normalizeDown(Resource r, Resource step);

  public abstract boolean fitsIn(Resource smaller, Resource bigger);

  /** Whether dividing by {@code r} is meaningless (a type this calculator reads is zero). */
  public abstract boolean isInvalidDivisor(Resource r);

  public boolean lessThan(Resource cluster, Resource lhs, Resource rhs) {
    return compare(cluster, lhs, rhs) < 0;
  }

  public boolean lessThanOrEqual(Resource cluster, Resource lhs, Resource rhs) {
    return compare(cluster, lhs, rhs) <= 0;
  }

  public boolean greaterThan(Resource cluster, Resource lhs, Resource rhs) {
    return compare(cluster, lhs, rhs) > 0;
  }

  /** {@code lhs} unless {@code rhs} is less; on a tie, {@code lhs}. */
  public Resource min(Resource cluster, Resource lhs, Resource rhs) {
    return compare(cluster, lhs, rhs) <= 0 ? lhs : rhs;
  }

  /** {@code lhs} unless {@code rhs} is more; on a tie, {@code lhs}. */
  public Resource max(Resource cluster, Resource lhs, Resource rhs) {
    return compare(cluster, lhs, rhs) >= 0 ? lhs : rhs;
  }

  /** Every amount times {@code by}, truncated: Hadoop's {@code Resources.multiply}, whatever the calculator. */
  public static Resource multiplyAndRoundDown(Resource r, double by) {
    return of((long) (r.memory() * by), (long) (r.vCores() * by));
  }

  public static Resource multiplyAndRoundUp(Resource r, double by) {
    return of((long) Math.ceil(r.memory() * by), (long) Math.ceil(r.vCores() * by));
  }

  public static Resource componentwiseMin(Resource a, Resource b) {
    return of(Math.min(a.memory(), b.memory()), Math.min(a.vCores(), b.vCores()));
  }

  public static Resource componentwiseMax(Resource a, Resource b) {
    return of(Math.max(a.memory(), b.memory()), Math.max(a.vCores(), b.vCores()));
  }

  /** {@code a - b}, each amount at least 0. */
  public static Resource subtractNonNegative(Resource a, Resource b) {
    return componentwiseMax(a.minus(b), Resource.NONE);
  }

  /** 0 over 0 is 0; anything else is float division, so x over 0 is infinite. */
  static float divideSafelyAsFloat(long lhs, long rhs) {
    return lhs == 0 && rhs == 0 ? 0f : (float) lhs / (float) rhs;
  }

  static long divideAndCeil(long a, long b) {
    return b == 0 ? 0 : (a + (b - 1)) / b;
  }

  static long divideAndCeil(long a, float b) {
    return b == 0 ? 0 : (long) Math.ceil(a / b);
  }

  static long roundUp(long a, long step) {
    return step == 0 ? a : divideAndCeil(a, step) * step;
  }

  static long roundDown(long a, long step) {
    return step == 0 ? a : (a / step) * step;
  }

  private static Resource memoryOnly(long memory) {
    return new Resource(memory, memory > 0 ? 1 : 0);
  }

  private static Resource of(long memory, long vCores) {
    return new Resource(memory, (int) vCores);
  }

  private static double share(long clusterAmount, long amount) {
    return clusterAmount == 0 ? Float.POSITIVE_INFINITY : (double) amount / clusterAmount;
  }

  private static int componentwise(Resource lhs, Resource rhs) {
    boolean lhsGreater = lhs.memory() > rhs.memory() || lhs.vCores() > rhs.vCores();
    boolean rhsGreater = lhs.memory() < rhs.memory() || lhs.vCores() < rhs.vCores();
    if (lhsGreater == rhsGreater) return 0;
    return lhsGreater ? 1 : -1;
  }
}
