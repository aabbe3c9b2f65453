package dev.bobbin.node.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import dev.bobbin.protocol.Resource;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ContainerLayoutTest {
  static final String APP = "application_1700000000000_0001";
  final ContainerLayout layout = new ContainerLayout(List.of(Path.of("/d1"), Path.of("/d2")),
      List.of(Path.of("/logs1"), Path.of("/logs2")), "host-a:8042");

  @Test
  void eachDirectoryHoldsTheNodesOwnFolderThatTheChecksWatch() {
    assertThat(layout.localDirs()).containsExactly(Path.of("/d1/host-a_8042/usercache"), Path.of("/d2/host-a_8042/usercache"));
    assertThat(layout.logDirs()).containsExactly(Path.of("/logs1/host-a_8042/logs"), Path.of("/logs2/host-a_8042/logs"));
  }

  @Test
  void aContainerGoesOnlyToGoodDirectories() {
    for (int i = 1; i <= 20; i++) {
      String id = "container_1700000000000_0001_01_0000" + (10 + i);
      ContainerLayout.Dirs dirs = layout.dirsFor("alice", APP, id, List.of(layout.localDirs().get(1)),
          List.of(layout.logDirs().get(0)));
      assertThat(dirs.workDir()).isEqualTo(Path.of("/d2/host-a_8042/usercache/alice/appcache", APP, id));
      assertThat(dirs.logDir()).isEqualTo(Path.of("/logs1/host-a_8042/logs", APP, id));
    }
  }

  @Test
  void containersAreSpreadOverTheGoodDirectories() {
    long onFirst = IntStream.rangeClosed(1, 40)
        .mapToObj(i -> layout.dirsFor("alice", APP, "container_1700000000000_0001_01_0000" + (10 + i)).workDir())
        .filter(p -> p.startsWith("/d1")).count();
    assertThat(onFirst).isBetween(1L, 39L);
  }

  @Test
  void aContainerRunAsItsUserHasTheNodesFoldersOfItsLocalAndItsLogDirectoryPrepared() {
    ContainerLayout.Dirs dirs = layout.dirsFor("alice", APP, "container_1700000000000_0001_01_000001",
        List.of(layout.localDirs().get(0)), List.of(layout.logDirs().get(1)));
    LaunchSpec spec = new LaunchSpec("container_1700000000000_0001_01_000001", APP, "alice",
        Resource.of(512, 1), Map.of(), List.of("true"), dirs.workDir(), dirs.logDir());
    assertThat(ContainerLayout.userDirs(spec).shared()).containsExactly(Path.of("/d1/host-a_8042"),
        Path.of("/d1/host-a_8042/usercache"), Path.of("/logs2/host-a_8042"), Path.of("/logs2/host-a_8042/logs"));
  }
}
