package dev.bobbin.config.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Capacities as Hadoop writes and converts them. */
class CapacityTextTest {
  private static QueueCapacity capacity(String text) {
    return CapacityText.capacity("k", text);
  }

  @Test
  void percentages() {
    assertThat(capacity("12.5")).isEqualTo(new QueueCapacity.Percentage(12.5f));
    assertThat(capacity(" 40 ")).isEqualTo(new QueueCapacity.Percentage(40f));
    assertThat(CapacityText.maximum("k", "-1")).isEqualTo(QueueCapacity.UNLIMITED);
    assertThat(CapacityText.maximum("k", "100")).isEqualTo(QueueCapacity.UNLIMITED);
    assertThat(new QueueCapacity.Percentage(12.5f).fraction()).isEqualTo(0.125f);
  }

  @Test
  void memoryUnitsConvertToMegabytesAsHadoopDoes() {
    // Hadoop's runs: [memory=2Gi] is 2048 MB, [memory=2G] 1907 (2 * 10^9 bytes, rounded down).
    assertThat(capacity("[memory=2Gi,vcores=3]")).isEqualTo(new QueueCapacity.Absolute(2048, 3));
    assertThat(capacity("[memory=2G,vcores=3]")).isEqualTo(new QueueCapacity.Absolute(1907, 3));
    assertThat(capacity("[memory-mb=2048,vcores=3]")).isEqualTo(new QueueCapacity.Absolute(2048, 3));
    assertThat(capacity("[memory=2048, vcores=3]")).isEqualTo(new QueueCapacity.Absolute(2048, 3));
    assertThat(capacity("[memory=1Ti,vcores=3]")).isEqualTo(new QueueCapacity.Absolute(1024 * 1024, 3));
    assertThat(capacity("[memory=2048Ki]")).isEqualTo(new QueueCapacity.Absolute(2, 0));
    assertThat(capacity("[memory=5000k]")).isEqualTo(new QueueCapacity.Absolute(4, 0));
    assertThat(capacity("[memory=10M]")).isEqualTo(new QueueCapacity.Absolute(9, 0));
  }

  @Test
  void maximumAllocationForms() {
    assertThat(MaximumAllocationText.parse("k", "memory-mb=4096,vcores=2")).isEqualTo(new MaximumAllocationText.Allocation(4096, 2));
    assertThat(MaximumAllocationText.parse("k", "memory=4G, vcores=2")).isEqualTo(new MaximumAllocationText.Allocation(4096, 2));
    assertThat(MaximumAllocationText.parse("k", "vcores=2,memory-mb=4 G")).isEqualTo(new MaximumAllocationText.Allocation(4096, 2));
    assertThat(MaximumAllocationText.parse("k", "memory=512M,vcores=1")).isEqualTo(new MaximumAllocationText.Allocation(512, 1));
  }
}
