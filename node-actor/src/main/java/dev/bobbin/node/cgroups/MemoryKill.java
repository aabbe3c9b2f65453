package dev.bobbin.node.cgroups;

import dev.bobbin.node.cgroups.ContainerCgroups.MemoryEvents;
import dev.bobbin.node.monitor.MemoryLimit;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether a container that ended by itself was ended by the kernel's memory limit on its cgroup,
 * and what its end then says, in the words of the container monitor's diagnostic: usage and
 * limit. A container that still succeeded, though the kernel killed one of its processes, ended
 * by itself.
 */
public final class MemoryKill {
  private MemoryKill() {}

  /** @param pid its root process; 0 when not known */
  public static Optional<String> diagnostics(String containerId, long pid, int exitCode, MemoryEvents e) {
    boolean killed = e.oomKills() > 0 || (e.oomKills() < 0 && e.limitHits() > 0);
    if (exitCode == 0 || !killed) return Optional.empty();
    String limit = e.limitBytes() > 0 ? MemoryLimit.bytes(e.limitBytes()) + "B" : "its limit";
    String usage = e.peakBytes() >= 0
        ? "Peak usage: " + MemoryLimit.bytes(e.peakBytes()) + "B of " + limit + " physical memory used. "
        : "Usage reached " + limit + " of physical memory. ";
    String kills = e.oomKills() > 0
        ? String.format(Locale.ROOT, "the kernel killed %d of its processes for memory", e.oomKills())
        : String.format(Locale.ROOT, "its usage reached the limit %d times", e.limitHits());
    return Optional.of(String.format(Locale.ROOT,
        "Container [pid=%d,containerID=%s] ran beyond the 'PHYSICAL' memory limit of its cgroup: %s. ",
        pid, containerId, kills) + usage + "Cgroup: " + e.cgroup() + ". Exit code is " + exitCode
        + ".");
  }
}
