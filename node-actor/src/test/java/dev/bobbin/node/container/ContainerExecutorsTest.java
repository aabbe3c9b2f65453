package dev.bobbin.node.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.config.ContainerExecutorSettings;
import dev.bobbin.config.ContainerExecutorSettings.Kind;
import dev.bobbin.config.SettingsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContainerExecutorsTest {
  private static final ContainerExecutorSettings LINUX =
      new ContainerExecutorSettings(Kind.LINUX, Set.of("root"), 1000, Set.of());

  @TempDir Path tmp;

  @Test
  void theDefaultExecutorRunsContainersAsTheNodeManagersUser() {
    assertThat(ContainerExecutors.launcher(LINUX.withKind(Kind.DEFAULT), tmp, new ContainerExecutors.Self(1000, "bob")))
        .isInstanceOf(LocalProcessLauncher.class);
    assertThat(ContainerExecutors.launcher(LINUX.withKind(Kind.DEFAULT), tmp, new ContainerExecutors.Self(0, "root")))
        .isInstanceOf(LocalProcessLauncher.class);
  }

  @Test
  void linuxIsRefusedAtStartWhenTheNodeManagerIsNotRoot() {
    assertThatThrownBy(() -> ContainerExecutors.launcher(LINUX, tmp, new ContainerExecutors.Self(1000, "bob")))
        .isInstanceOf(SettingsException.class)
        .hasMessageStartingWith("bobbin.nm.container-executor: linux")
        .hasMessageContaining("needs the NodeManager to run as root; it runs as bob");
  }

  @Test
  void linuxAsRootMakesTheWorkDirReachableForEveryUser() throws Exception {
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path work = tmp.resolve("a").resolve("nm-8042");
    assertThat(ContainerExecutors.launcher(LINUX, work, new ContainerExecutors.Self(0, "root")))
        .isInstanceOf(UserProcessLauncher.class);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(work))).isEqualTo("rwxr-xr-x");
  }

  @Test
  void aWorkDirOtherUsersCannotReachIsRefusedAtStart() throws Exception {
    Path closed = tmp.resolve("closed");
    Files.createDirectory(closed, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    assertThatThrownBy(() -> ContainerExecutors.prepareWorkDir(closed.resolve("nm-8042")))
        .isInstanceOf(SettingsException.class)
        .hasMessageStartingWith("bobbin.nm.work-dir: ")
        .hasMessageContaining(closed + " does not let other users through (mode o+x)");
  }
}
