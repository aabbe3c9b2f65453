package dev.bobbin.core.policy.capacity;

import dev.bobbin.protocol.Resource;
import java.util.Arrays;

/** Builders for capacity-scheduler queue trees in tests. */
final class CapacityTestQueues {
  static final long GB = 1024;

  private CapacityTestQueues() {}

  static Resource mb(long memory, int vCores) {
    return new Resource(memory, vCores);
  }

  static Resource gb(long gigabytes, int vCores) {
    return new Resource(gigabytes * GB, vCores);
  }

  /** A queue with a percentage capacity and no maximum. */
  static CapacityQueueSpec.Builder queue(String path, float percent) {
    return CapacityQueueSpec.builder(path).capacity(percent);
  }

  /** A queue with an absolute capacity. */
  static CapacityQueueSpec.Builder queue(String path, Resource capacity) {
    return CapacityQueueSpec.builder(path).capacity(QueueCapacity.absolute(capacity));
  }

  static CapacityQueueSpec root(CapacityQueueSpec.Builder... children) {
    return CapacityQueueSpec.builder("root")
        .children(Arrays.stream(children).map(CapacityQueueSpec.Builder::build).toList()).build();
  }

  static CapacityQueueSpec.Builder parent(CapacityQueueSpec.Builder parent, CapacityQueueSpec.Builder... children) {
    return parent.children(Arrays.stream(children).map(CapacityQueueSpec.Builder::build).toList());
  }

  /**
   * The seed's hierarchy: {@code a} (40 %, at most 60 %) with {@code a1} (30 %) and {@code a2} (70 %,
   * at most 50 %); {@code b} (50 %, at most 80 %) with {@code b1}, {@code b2}, {@code b3} (10, 20, 70 %);
   * {@code c} (10 %, at most 30 %).
   */
  static CapacityQueueSpec seedTree() {
    return root(
        parent(queue("root.a", 40).maximumCapacity(60),
            queue("root.a.a1", 30), queue("root.a.a2", 70).maximumCapacity(50)),
        parent(queue("root.b", 50).maximumCapacity(80),
            queue("root.b.b1", 10), queue("root.b.b2", 20), queue("root.b.b3", 70)),
        queue("root.c", 10).maximumCapacity(30));
  }

  static CapacitySettings settings(ResourceMath math) {
    return CapacitySettings.defaults(math);
  }
}
