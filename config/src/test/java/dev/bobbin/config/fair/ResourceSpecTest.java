package dev.bobbin.config.fair;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.config.SettingsException;
import dev.bobbin.config.fair.ResourceSpec.Absolute;
import dev.bobbin.config.fair.ResourceSpec.Percentage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ResourceSpecTest {
  private static final long UNBOUNDED_MB = Absolute.UNBOUNDED_MEMORY;
  private static final int UNBOUNDED_VCORES = Absolute.UNBOUNDED_VCORES;

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "1024 mb, 4 vcores      | 1024 | 4",
        "4 vcores, 1024 mb      | 1024 | 4",
        "1024mb,4vcores         | 1024 | 4",
        "  1024 MB   8 VCores   | 1024 | 8",
        "10000 mb,0vcores       | 10000 | 0",
        "5120.7 mb, 2.5 vcores  | 5120 | 2",
        "memory-mb=1024, vcores=4 | 1024 | 4",
        "vcores=4,memory-mb=1024  | 1024 | 4",
      })
  void absoluteForms(String text, long mb, int vcores) {
    assertThat(ResourceSpec.parse("k", text)).isEqualTo(new Absolute(mb, vcores));
  }

  @Test
  void pairsLeaveOutResourcesAsUnboundedForLimitsAndZeroForMinimums() {
    assertThat(ResourceSpec.parse("k", "vcores=4")).isEqualTo(new Absolute(UNBOUNDED_MB, 4));
    assertThat(ResourceSpec.parseAbsolute("k", "memory-mb=2048")).isEqualTo(new Absolute(2048, UNBOUNDED_VCORES));
    assertThat(ResourceSpec.parseMinimum("k", "vcores=4")).isEqualTo(new Absolute(0, 4));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "50% memory, 25% cpu       | 0.5  | 0.25",
        "25% cpu, 50% memory       | 0.5  | 0.25",
        "50%                       | 0.5  | 0.5",
        "12.5 %                    | 0.125 | 0.125",
        "memory-mb=50%, vcores=25% | 0.5  | 0.25",
        "vcores=25%                | 1.0  | 0.25",
      })
  void percentageForms(String text, double memory, double vcores) {
    assertThat(ResourceSpec.parse("k", text)).isEqualTo(new Percentage(memory, vcores));
  }

  @Test
  void resolvesAgainstTheCluster() {
    ResourceSpec half = ResourceSpec.parse("k", "50% memory, 25% cpu");
    // 50% of 10000 MB is 5000 MB; 25% of 10 vcores is 2.5, rounded down to 2 as Hadoop does.
    assertThat(half.memoryMb(10_000)).isEqualTo(5000);
    assertThat(half.vcores(10)).isEqualTo(2);

    ResourceSpec fixed = ResourceSpec.parse("k", "1024 mb, 4 vcores");
    assertThat(fixed.memoryMb(10_000)).isEqualTo(1024);
    assertThat(fixed.vcores(10)).isEqualTo(4);

    assertThat(ResourceSpec.UNLIMITED.isUnlimited()).isTrue();
    assertThat(ResourceSpec.UNLIMITED.memoryMb(10_000)).isEqualTo(Long.MAX_VALUE);
    assertThat(ResourceSpec.UNLIMITED.vcores(10)).isEqualTo(Integer.MAX_VALUE);
    assertThat(ResourceSpec.UNLIMITED).isNotEqualTo(new Absolute(UNBOUNDED_MB, UNBOUNDED_VCORES));
    assertThat(fixed.isUnlimited()).isFalse();
  }

  @Test
  void describesInNameValueNotation() {
    assertThat(new Absolute(1024, 4).describe()).isEqualTo("memory-mb=1024, vcores=4");
    assertThat(new Absolute(UNBOUNDED_MB, 4).describe()).isEqualTo("memory-mb=unbounded, vcores=4");
    assertThat(new Percentage(0.5, 0.25).describe()).isEqualTo("memory-mb=50.0%, vcores=25.0%");
    assertThat(ResourceSpec.UNLIMITED.describe()).isEqualTo("unlimited");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "''                          | empty resource value",
        "1024 mb                     | missing vcores",
        "4 vcores                    | missing mb",
        "lots                        | missing mb",
        "-1024 mb, 4 vcores          | mb must not be negative",
        "50% memory, 10 vcores       | missing \"X% cpu\"",
        "-5%                         | percentage must not be negative",
        "memory-mb=1024, gpu=1       | unknown resource 'gpu'",
        "memory-mb=1024 mb, vcores=4 | memory-mb must be a whole number",
        "memory-mb=1024; vcores=4    | every resource must be name=value",
        "memory-mb=1024, vcores      | every resource must be name=value",
        "memory-mb=50%, vcores=2     | all must be",
        "memory-mb=-1, vcores=2      | memory-mb must not be negative",
        "memory-mb=1, memory-mb=2    | memory-mb is given twice",
        "vcores=99999999999          | vcores amount is too large",
      })
  void badValuesSayWhy(String text, String problem) {
    assertThatThrownBy(() -> ResourceSpec.parse("allocations/queue[root.a]/maxResources", text))
        .isInstanceOf(SettingsException.class)
        .hasMessageContaining(problem)
        .extracting(e -> ((SettingsException) e).key())
        .isEqualTo("allocations/queue[root.a]/maxResources");
  }

  @Test
  void minimumsAndContainerCapsMustBeAbsolute() {
    assertThatThrownBy(() -> ResourceSpec.parseMinimum("k", "50%"))
        .hasMessageContaining("must be an absolute amount");
    assertThatThrownBy(() -> ResourceSpec.parseAbsolute("k", "memory-mb=50%"))
        .hasMessageContaining("not a percentage");
  }
}
