package dev.bobbin.node.logs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AggregatedLogsTest {
  private static final String APP = "application_1700000000000_0001";

  @Test
  void aNodesSecondCopyReplacesItsFirstAndLeavesOtherNodesParts(@TempDir Path dir) throws Exception {
    Path local = dir.resolve("local").resolve(APP);
    Path c1 = Files.createDirectories(local.resolve("container_1700000000000_0001_01_000001"));
    Files.writeString(c1.resolve("stdout"), "first");
    Path root = dir.resolve("remote");
    Path otherNode = Files.createDirectories(AggregatedLogs.nodeDir(root, "alice", APP, "other:1").resolve("c"));

    assertThat(AggregatedLogs.copy(local, root, "alice", APP, "host:1")).isEqualTo(1);
    Files.writeString(c1.resolve("stdout"), "second");
    Files.writeString(c1.resolve("stderr"), "err");
    assertThat(AggregatedLogs.copy(local, root, "alice", APP, "host:1")).isEqualTo(2);

    Path appDir = AggregatedLogs.appDir(root, "alice", APP);
    assertThat(AggregatedLogs.containers(appDir)).extracting(AggregatedLogs.ContainerLogs::node)
        .containsExactly("other_1", "host_1");
    assertThat(appDir.resolve("host_1/container_1700000000000_0001_01_000001/stdout")).hasContent("second");
    assertThat(otherNode).isDirectory();
    try (var parts = Files.list(appDir)) {
      assertThat(parts.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("host_1", "other_1");
    }
    assertThat(AggregatedLogs.appDirs(root, APP)).containsExactly(appDir);
  }

  @Test
  void onlyApplicationsUnchangedSinceTheCutoffAreDue(@TempDir Path root) throws Exception {
    Path old = Files.createDirectories(root.resolve("alice/logs/application_1700000000000_0001/host_1"));
    Path touched = Files.createDirectories(root.resolve("alice/logs/application_1700000000000_0002/host_1"));
    Path stranger = Files.createDirectories(root.resolve("alice/logs/keep-me"));
    Instant cutoff = Instant.parse("2024-01-01T00:00:00Z");
    FileTime before = FileTime.from(cutoff.minusSeconds(60));
    for (Path p : new Path[] {old, old.getParent(), touched.getParent(), stranger}) Files.setLastModifiedTime(p, before);
    // A node's part that came later keeps its application.
    Files.setLastModifiedTime(touched, FileTime.from(cutoff.plusSeconds(1)));

    assertThat(AggregatedLogs.unchangedSince(root, cutoff)).containsExactly(old.getParent());
  }
}
