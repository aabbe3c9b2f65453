package dev.bobbin.node.cleanup;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeletionsTest {
  @TempDir Path root;

  @Test
  void anEarlierRunsLocalDirectoriesAreDueAtOnceAndItsLogsAfterTheirRetention() throws Exception {
    Instant now = Instant.parse("2026-11-26T12:00:00Z");
    Path appA = Files.createDirectories(root.resolve("usercache/alice/appcache/application_1_0001/c1"));
    Path appB = Files.createDirectories(root.resolve("usercache/bob/appcache/application_1_0002"));
    Path oldLogs = Files.createDirectories(root.resolve("logs/application_1_0001"));
    Path newLogs = Files.createDirectories(root.resolve("logs/application_1_0002"));
    Files.setLastModifiedTime(oldLogs, FileTime.from(now.minus(Duration.ofHours(5))));
    Files.setLastModifiedTime(newLogs, FileTime.from(now.minus(Duration.ofHours(1))));

    assertThat(Deletions.leftovers(List.of(root.resolve("usercache")), List.of(root.resolve("logs")),
        Duration.ofHours(3), now)).containsExactlyInAnyOrder(
        new Deletions.Due(appA.getParent(), now),
        new Deletions.Due(appB, now),
        new Deletions.Due(oldLogs, now),
        new Deletions.Due(newLogs, now.plus(Duration.ofHours(2))));
  }

  @Test
  void aNodeThatNeverRanHasNothingLeft() throws Exception {
    assertThat(Deletions.leftovers(List.of(root.resolve("absent/usercache")), List.of(root.resolve("absent/logs")),
        Duration.ofHours(3), Instant.now())).isEmpty();
  }

  @Test
  void aTreeIsDeletedWithoutFollowingItsLinks() throws Exception {
    Path outside = Files.writeString(Files.createDirectories(root.resolve("outside")).resolve("keep"), "x");
    Path tree = Files.createDirectories(root.resolve("tree/a/b"));
    Files.writeString(tree.resolve("f"), "y");
    Files.createSymbolicLink(root.resolve("tree/a/link"), outside.getParent());

    assertThat(Deletions.deleteTree(root.resolve("tree"))).isTrue();
    assertThat(root.resolve("tree")).doesNotExist();
    assertThat(outside).exists();
    assertThat(Deletions.deleteTree(root.resolve("tree"))).isFalse();
  }
}
