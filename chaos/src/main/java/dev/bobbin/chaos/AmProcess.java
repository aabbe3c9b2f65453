package dev.bobbin.chaos;

import dev.bobbin.protocol.ContainerEnv;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Finds the process of an AM container's ApplicationMaster from outside, through {@code /proc}.
 * A NodeManager runs a container as {@code setsid bash launch_container.sh}, a child of its own
 * process; the script exports the container's environment, {@code CONTAINER_ID} among it, and
 * then starts the AM's JVM. So the AM is the descendant of that NodeManager whose environment
 * ({@code /proc/PID/environ}) holds {@code CONTAINER_ID=<the AM container's id>} and whose command
 * line ({@code /proc/PID/cmdline}) runs the AM's main class; the script's own shell has neither.
 * Should a launcher detach its containers from the NodeManager's tree, every process is searched
 * the same way (a container id names its cluster and application, so it matches nothing else).
 */
final class AmProcess {
  private AmProcess() {}

  static Optional<ProcessHandle> find(ProcessHandle nodeManager, String containerId, String mainClass) {
    Predicate<ProcessHandle> isAm = p -> matches(p.pid(), containerId, mainClass);
    Optional<ProcessHandle> child = nodeManager.descendants().filter(isAm).findFirst();
    return child.isPresent() ? child : ProcessHandle.allProcesses().filter(isAm).findFirst();
  }

  /** False for a process that has gone, or whose {@code /proc} entries this user may not read. */
  static boolean matches(long pid, String containerId, String mainClass) {
    Path proc = Path.of("/proc", Long.toString(pid));
    try {
      return hasEntry(Files.readAllBytes(proc.resolve("environ")), ContainerEnv.CONTAINER_ID + "=" + containerId)
          && hasEntry(Files.readAllBytes(proc.resolve("cmdline")), mainClass);
    } catch (IOException | RuntimeException gone) {
      return false;
    }
  }

  /** {@code /proc/PID/environ} and {@code cmdline} are NUL-separated entries. */
  static boolean hasEntry(byte[] nulSeparated, String entry) {
    return Arrays.asList(new String(nulSeparated, StandardCharsets.UTF_8).split("\0")).contains(entry);
  }
}
