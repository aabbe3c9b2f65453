package dev.bobbin.config.capacity;

/**
 * A queue's {@code capacity} or {@code maximum-capacity} as configured: a percentage of the parent
 * queue's, or an absolute amount of resources ({@code [memory=10240,vcores=12]}). What either
 * amounts to on a given cluster is computed by the policy, as Hadoop computes it at run time.
 */
public sealed interface QueueCapacity {
  /** A maximum that does not limit the queue below its parent: 100 %. */
  QueueCapacity UNLIMITED = new Percentage(100f);

  /** @param percent 0 to 100, of the parent queue's capacity (or maximum capacity) */
  record Percentage(float percent) implements QueueCapacity {
    public Percentage {
      if (!(percent >= 0 && percent <= 100)) throw new IllegalArgumentException("percent out of 0..100: " + percent);
    }

    /** The percentage as Hadoop holds it: 0.0 to 1.0. */
    public float fraction() {
      return percent / 100f;
    }

    @Override
    public String toString() {
      return percent + "%";
    }
  }

  /** Fixed resources; memory in MB. */
  record Absolute(long memoryMb, int vcores) implements QueueCapacity {
    public Absolute {
      if (memoryMb < 0 || vcores < 0) {
        throw new IllegalArgumentException("negative resource: " + memoryMb + " MB, " + vcores + " vcores");
      }
    }

    @Override
    public String toString() {
      return "[memory=" + memoryMb + ",vcores=" + vcores + "]";
    }
  }
}
