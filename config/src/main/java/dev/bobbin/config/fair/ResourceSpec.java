package dev.bobbin.config.fair;

/**
 * A queue resource amount as the allocation file writes it: absolute ("1024 mb, 4 vcores",
 * "vcores=4, memory-mb=1024"), a share of the cluster ("50% memory, 25% cpu", "50%",
 * "memory-mb=50%, vcores=25%"), or {@link #UNLIMITED}. Memory is in MB. Resolve it against the
 * cluster's size with {@link #memoryMb(long)} and {@link #vcores(int)}.
 */
public sealed interface ResourceSpec {
  /** No limit: resolves to {@link Long#MAX_VALUE} MB and {@link Integer#MAX_VALUE} vcores. */
  ResourceSpec UNLIMITED = new Unlimited();

  /** Nothing: Hadoop's minimum share when none is configured. */
  ResourceSpec NONE = new Absolute(0, 0);

  long memoryMb(long clusterMemoryMb);

  int vcores(int clusterVcores);

  default boolean isUnlimited() {
    return false;
  }

  /** The amount in the allocation file's "new" notation, e.g. "memory-mb=1024, vcores=4". */
  String describe();

  /**
   * Fixed amounts. In "name=value" notation a resource left out of a limit is unbounded
   * ({@link #UNBOUNDED_MEMORY}, {@link #UNBOUNDED_VCORES}); left out of a minimum, it is 0.
   */
  record Absolute(long memoryMb, int vcores) implements ResourceSpec {
    public static final long UNBOUNDED_MEMORY = Long.MAX_VALUE;
    public static final int UNBOUNDED_VCORES = Integer.MAX_VALUE;

    public Absolute {
      if (memoryMb < 0 || vcores < 0) {
        throw new IllegalArgumentException("negative resource: " + memoryMb + " MB, " + vcores + " vcores");
      }
    }

    @Override
    public long memoryMb(long clusterMemoryMb) {
      return memoryMb;
    }

    @Override
    public int vcores(int clusterVcores) {
      return vcores;
    }

    @Override
    public String describe() {
      return "memory-mb=" + (memoryMb == UNBOUNDED_MEMORY ? "unbounded" : memoryMb)
          + ", vcores=" + (vcores == UNBOUNDED_VCORES ? "unbounded" : vcores);
    }
  }

  /** Fractions of the cluster (0.5 is 50%); resolved amounts are rounded down, as Hadoop does. */
  record Percentage(double memoryFraction, double vcoresFraction) implements ResourceSpec {
    public Percentage {
      if (!(memoryFraction >= 0) || !(vcoresFraction >= 0)) {
        throw new IllegalArgumentException("negative share: " + memoryFraction + ", " + vcoresFraction);
      }
    }

    @Override
    public long memoryMb(long clusterMemoryMb) {
      return (long) (clusterMemoryMb * memoryFraction);
    }

    @Override
    public int vcores(int clusterVcores) {
      return (int) (clusterVcores * vcoresFraction);
    }

    @Override
    public String describe() {
      return "memory-mb=" + memoryFraction * 100 + "%, vcores=" + vcoresFraction * 100 + "%";
    }
  }

  /** No limit at all. Use {@link #UNLIMITED}. */
  record Unlimited() implements ResourceSpec {
    @Override
    public long memoryMb(long clusterMemoryMb) {
      return Long.MAX_VALUE;
    }

    @Override
    public int vcores(int clusterVcores) {
      return Integer.MAX_VALUE;
    }

    @Override
    public boolean isUnlimited() {
      return true;
    }

    @Override
    public String describe() {
      return "unlimited";
    }
  }

  /**
   * A limit (maxResources, maxChildResources, queueMaxResourcesDefault): any form; resources left
   * out of "name=value" notation are unbounded (or 100%).
   */
  static ResourceSpec parse(String key, String text) {
    return ResourceText.parse(key, text, ResourceText.Use.LIMIT);
  }

  /** A minimum share (minResources): absolute only; resources left out are 0. */
  static ResourceSpec parseMinimum(String key, String text) {
    return ResourceText.parse(key, text, ResourceText.Use.MINIMUM);
  }

  /** A per-container cap (maxContainerAllocation): absolute only; resources left out are unbounded. */
  static ResourceSpec parseAbsolute(String key, String text) {
    return ResourceText.parse(key, text, ResourceText.Use.CONTAINER);
  }
}
