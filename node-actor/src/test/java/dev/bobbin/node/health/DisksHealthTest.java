package dev.bobbin.node.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.node.health.DisksHealth.DirCheck;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class DisksHealthTest {
  private static final Path D1 = Path.of("/d1/usercache");
  private static final Path D2 = Path.of("/d2/usercache");
  private static final Path D3 = Path.of("/d3/usercache");
  private static final Path D4 = Path.of("/d4/usercache");
  private static final Path LOGS = Path.of("/d1/logs");

  private static DirCheck good(Path d) {
    return new DirCheck(d, "");
  }

  private static DirCheck bad(Path d, String why) {
    return new DirCheck(d, why);
  }

  @Test
  void everyDirectoryGoodIsHealthyWithNothingToReport() {
    DisksHealth h = DisksHealth.of(List.of(good(D1), good(D2)), List.of(good(LOGS)), 0.25, 7);
    assertThat(h.health()).isEqualTo(NodeHealth.healthy(7));
    assertThat(h.goodLocalDirs()).containsExactly(D1, D2);
    assertThat(h.goodLogDirs()).containsExactly(LOGS);
    assertThat(h.usable()).isTrue();
  }

  @Test
  void aFailedDirectoryLeavesUseAndIsReportedWhileEnoughOthersKeepTheNodeHealthy() {
    // 1 of 4 local dirs good is exactly the default minimum of 25%.
    DisksHealth h = DisksHealth.of(
        List.of(bad(D1, "directory is not writable"), bad(D2, "disk 95.0% used, above the limit of 90%"),
            bad(D3, "directory is not writable"), good(D4)),
        List.of(good(LOGS)), 0.25, 7);
    assertThat(h.health().healthy()).isTrue();
    assertThat(h.goodLocalDirs()).containsExactly(D4);
    assertThat(h.health().report()).isEqualTo("3/4 local-dirs failed: /d1/usercache (directory is not writable), "
        + "/d2/usercache (disk 95.0% used, above the limit of 90%), /d3/usercache (directory is not writable)");
  }

  @Test
  void tooFewGoodDirectoriesOfEitherKindMakeTheNodeUnhealthy() {
    DisksHealth logsGone = DisksHealth.of(List.of(good(D1)), List.of(bad(LOGS, "directory is not writable")), 0.25, 7);
    assertThat(logsGone.health().healthy()).isFalse();
    assertThat(logsGone.health().report()).isEqualTo("1/1 log-dirs failed: /d1/logs (directory is not writable)");
    assertThat(logsGone.goodLogDirs()).isEmpty();
    assertThat(logsGone.usable()).isFalse();

    DisksHealth halfLocal = DisksHealth.of(List.of(good(D1), bad(D2, "gone")), List.of(good(LOGS)), 0.75, 7);
    assertThat(halfLocal.health().healthy()).as("1/2 is below 75%").isFalse();
    assertThat(halfLocal.usable()).isFalse();
  }

  @Test
  void bothKindsFailingAreBothReported() {
    DisksHealth h = DisksHealth.of(List.of(bad(D1, "a")), List.of(bad(LOGS, "b")), 0.25, 7);
    assertThat(h.health().report()).isEqualTo("1/1 local-dirs failed: /d1/usercache (a); 1/1 log-dirs failed: /d1/logs (b)");
  }

  @Test
  void withNoMinimumTheNodeStaysHealthyButNoContainerCanStart() {
    DisksHealth h = DisksHealth.of(List.of(bad(D1, "a")), List.of(good(LOGS)), 0, 7);
    assertThat(h.health().healthy()).isTrue();
    assertThat(h.usable()).isFalse();
  }

  @Test
  void uncheckedDirectoriesAreAllInUse() {
    DisksHealth h = DisksHealth.unchecked(List.of(D1, D2), List.of(LOGS), 7);
    assertThat(h.goodLocalDirs()).containsExactly(D1, D2);
    assertThat(h.usable()).isTrue();
  }
}
