package dev.bobbin.core.policy.capacity;

import dev.bobbin.protocol.Resource;
import java.util.Objects;

/**
 * A queue's {@code capacity} or {@code maximum-capacity}: a percentage of its parent, or an absolute
 * resource ({@code [memory=10240,vcores=12]}).
 */
public sealed interface QueueCapacity {
  /** A maximum capacity that does not limit the queue: 100 % of its parent. */
  Percent UNLIMITED = new Percent(100f);

  /** {@code -1} is Hadoop's "not set" for a maximum capacity and means 100. */
  static Percent percent(float value) {
    return value == -1f ? UNLIMITED : new Percent(value);
  }

  static Absolute absolute(Resource resource) {
    return new Absolute(resource);
  }

  /** @param value percent of the parent, from 0 to 100, as a float (12.5 is 12.5 %) */
  record Percent(float value) implements QueueCapacity {
    public Percent {
      if (!(value >= 0f && value <= 100f)) {
        throw new IllegalArgumentException("a capacity percentage must be between 0 and 100, got " + value);
      }
    }

    @Override
    public String toString() {
      return value + "%";
    }
  }

  /** @param resource memory and vcores; Hadoop takes a configuration without memory as not set */
  record Absolute(Resource resource) implements QueueCapacity {
    public Absolute {
      Objects.requireNonNull(resource, "resource");
      if (resource.memory() <= 0 || resource.vCores() < 0) {
        throw new IllegalArgumentException("an absolute capacity needs memory and no negative vcores, got " + resource);
      }
    }

    @Override
    public String toString() {
      return "[memory=" + resource.memory() + ",vcores=" + resource.vCores() + "]";
    }
  }
}
