package dev.bobbin.node.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.Resource;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LaunchScriptTest {
  static final String CID = "container_1_0001_01_000002";
  static final String APP = "application_1_0001";
  final ContainerLayout layout = new ContainerLayout(Path.of("/tmp/nm"), "host-a:8042");
  final ContainerLayout.Dirs dirs = layout.dirsFor("alice", APP, CID);
  final LaunchScript.NodeFacts node =
      new LaunchScript.NodeFacts("host-a", 8042, "/opt/jdk", List.of("http://rm1:8088", "http://rm2:8088"));

  @Test
  void directoriesArePerNodeUserApplicationAndContainer() {
    assertThat(dirs.workDir()).isEqualTo(Path.of("/tmp/nm/host-a_8042/usercache/alice/appcache", APP, CID));
    assertThat(dirs.logDir()).isEqualTo(Path.of("/tmp/nm/host-a_8042/logs", APP, CID));
    assertThat(layout.dirsFor("../evil", APP, CID).workDir().normalize()).startsWithRaw(layout.nodeRoot().resolve("usercache"));
  }

  @Test
  void nodeManagerVariablesWinAndJavaHomeIsOnlyADefault() {
    var ctx = new ContainerLaunchContext(List.of("run"), Map.of("CONTAINER_ID", "fake", "JAVA_HOME", "/my/jdk", "X", "1"));
    LaunchSpec spec = LaunchScript.plan(CID, APP, "alice", Resource.of(1, 1), ctx, dirs, node, Map.of());

    assertThat(spec.environment())
        .containsEntry("CONTAINER_ID", CID)
        .containsEntry("APPLICATION_ID", APP)
        .containsEntry("JAVA_HOME", "/my/jdk")
        .containsEntry("NM_HOST", "host-a")
        .containsEntry("NM_PORT", "8042")
        .containsEntry("NM_HTTP_PORT", "8042")
        .containsEntry("USER", "alice")
        .containsEntry("PWD", dirs.workDir().toString())
        .containsEntry("LOG_DIRS", dirs.logDir().toString())
        .containsEntry("LOCAL_DIRS", dirs.appLocalDir().toString())
        .containsEntry("BOBBIN_RM_ADDRESSES", "http://rm1:8088,http://rm2:8088")
        .containsEntry("X", "1");
  }

  @Test
  void placeholdersExpandFromTheContainerEnvironmentThenTheInheritedOne() {
    var ctx = new ContainerLaunchContext(
        List.of("{{JAVA_HOME}}/bin/java -cp a<CPS>b Main 1><LOG_DIR>/out {{HOME}} {{NOPE}}|"),
        Map.of("CLASSPATH", "{{PWD}}/lib"));
    LaunchSpec spec = LaunchScript.plan(CID, APP, "alice", Resource.of(1, 1), ctx, dirs, node, Map.of("HOME", "/home/a"));

    assertThat(spec.commands()).containsExactly(
        "/opt/jdk/bin/java -cp a:b Main 1>" + dirs.logDir() + "/out /home/a |");
    assertThat(spec.environment()).containsEntry("CLASSPATH", dirs.workDir() + "/lib");
  }

  @Test
  void scriptExportsQuotedValuesAndJoinsCommands() {
    var ctx = new ContainerLaunchContext(List.of("echo a", "echo b"), Map.of("Q", "it's $HOME"));
    String script = LaunchScript.render(LaunchScript.plan(CID, APP, "alice", Resource.of(1, 1), ctx, dirs, node, Map.of()));

    assertThat(script).startsWith("#!/bin/bash\n")
        .contains("export Q='it'\\''s $HOME'\n")
        .contains("export CONTAINER_ID='" + CID + "'\n")
        .contains("\necho a && echo b\n");
  }

  @Test
  void environmentNamesAShellCannotExportAreRefused() {
    var ctx = new ContainerLaunchContext(List.of("true"), Map.of("BAD NAME", "x"));
    assertThatThrownBy(() -> LaunchScript.plan(CID, APP, "alice", Resource.of(1, 1), ctx, dirs, node, Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("BAD NAME");
  }
}
