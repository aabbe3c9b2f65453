package dev.bobbin.node.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class DiskThresholdsTest {
  private static final long MB = 1024 * 1024;
  private static final DiskThresholds DEFAULTS = new DiskThresholds(90.0, 0);

  /** A directory the NodeManager can use, on a disk of {@code totalMb} with {@code usableMb} free. */
  private static DirProbe disk(long usableMb, long totalMb) {
    return new DirProbe(Path.of("/data1/nm"), "", usableMb * MB, totalMb * MB);
  }

  @Test
  void aDirectoryItCannotUseFailsWithThatReasonWhateverItsDisk() {
    DirProbe denied = new DirProbe(Path.of("/data1/nm"), "directory is not writable", 0, 0);
    assertThat(DEFAULTS.problem(denied)).isEqualTo("directory is not writable");
  }

  @Test
  void aDiskUsedAboveTheLimitIsFullAndAtTheLimitIsNot() {
    // 100 GB with 10 GB free is 90% used: at the limit, still good; 9 GB free is 91%.
    assertThat(DEFAULTS.problem(disk(10 * 1024, 100 * 1024))).isEmpty();
    assertThat(DEFAULTS.problem(disk(9 * 1024, 100 * 1024))).isEqualTo("disk 91.0% used, above the limit of 90%");
  }

  @Test
  void aDiskWithNoSpaceLeftIsFullEvenWithNoUtilisationLimit() {
    DiskThresholds noLimit = new DiskThresholds(100.0, 0);
    assertThat(noLimit.problem(disk(1, 100 * 1024))).isEmpty();
    assertThat(noLimit.problem(disk(0, 100 * 1024))).isEqualTo("disk 100.0% used, above the limit of 100%");
  }

  @Test
  void aDiskWithLessFreeSpaceThanTheMinimumIsFull() {
    DiskThresholds keep2Gb = new DiskThresholds(90.0, 2048);
    assertThat(keep2Gb.problem(disk(2048, 10 * 1024))).isEmpty();
    assertThat(keep2Gb.problem(disk(2047, 10 * 1024))).isEqualTo("disk has 2047 MB free, below the limit of 2048 MB");
  }

  @Test
  void aFractionalLimitIsWrittenAsGiven() {
    assertThat(new DiskThresholds(87.5, 0).problem(disk(10, 100))).isEqualTo("disk 90.0% used, above the limit of 87.5%");
  }

  @Test
  void aDiskOfUnknownSizeFails() {
    assertThat(DEFAULTS.problem(disk(0, 0))).isEqualTo("size of its disk unknown");
  }
}
