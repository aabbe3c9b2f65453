package dev.bobbin.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AmProcessTest {
  private static final String MAIN = "dev.bobbin.am.shell.DistributedShellAm";

  @Test
  void entriesAreNulSeparated() {
    byte[] environ = "PATH=/bin\0CONTAINER_ID=container_e1_1_0001_01_000001\0HOME=/root\0".getBytes(StandardCharsets.UTF_8);
    assertThat(AmProcess.hasEntry(environ, "CONTAINER_ID=container_e1_1_0001_01_000001")).isTrue();
    assertThat(AmProcess.hasEntry(environ, "CONTAINER_ID=container_e1_1_0001_01_00000")).isFalse();
    assertThat(AmProcess.hasEntry(environ, "CONTAINER_ID=container_e1_1_0001_01_0000011")).isFalse();
  }

  /**
   * A stand-in AM: a shell whose command line names the AM's main class and whose environment names
   * its container, with a child (as a task would be) that has the environment and not the command line.
   */
  @Test
  void theAmIsTheDescendantWithItsContainerIdAndTheAmMainClass() throws Exception {
    assumeTrue(Files.isReadable(Path.of("/proc/self/environ")), "needs Linux /proc");
    String container = "container_e9_" + ProcessHandle.current().pid() + "_0001_01_000001";
    ProcessBuilder pb = new ProcessBuilder("bash", "-c", "sleep 60; true", MAIN);
    pb.environment().put("CONTAINER_ID", container);
    Process am = pb.start();
    try {
      // Until the started process has exec'd the shell, /proc shows the JVM's launcher helper.
      long deadline = System.nanoTime() + 10_000_000_000L;
      Optional<ProcessHandle> found = AmProcess.find(ProcessHandle.current(), container, MAIN);
      while (found.isEmpty() && System.nanoTime() < deadline && Sleep.millis(20)) {
        found = AmProcess.find(ProcessHandle.current(), container, MAIN);
      }
      assertThat(found).map(ProcessHandle::pid).contains(am.pid());
      assertThat(AmProcess.find(ProcessHandle.current(), container.replace("_000001", "_000002"), MAIN)).isEmpty();
      assertThat(AmProcess.find(ProcessHandle.current(), container, "dev.bobbin.SomethingElse")).isEmpty();
    } finally {
      am.descendants().forEach(ProcessHandle::destroyForcibly);
      am.destroyForcibly();
    }
  }
}
