package dev.bobbin.node.cgroups;

import dev.bobbin.node.cgroups.CgroupMounts.Mount;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds cgroups this NodeManager may place its containers in, as it starts: cgroup v2 with the
 * memory and cpu controllers where the NodeManager can make its own cgroup and enable both for its
 * children, else cgroup v1 memory and cpu hierarchies where it can make its own cgroup in each.
 * Its own cgroup is {@code <mount>/<hierarchy>/<node id>}, so that NodeManagers sharing a host
 * keep apart.
 */
public final class CgroupDetection {
  private CgroupDetection() {}

  public sealed interface Result {}

  /** @param passedOver why cgroups found before these were not used; empty when none were */
  public record Found(ContainerCgroups cgroups, List<String> passedOver) implements Result {}

  public record NotFound(String why) implements Result {}

  public static Result detect(List<Mount> mounts, String hierarchy, String nodeId) {
    Path own = Path.of(hierarchy, ContainerCgroups.nodeDirName(nodeId));
    List<String> passedOver = new ArrayList<>();
    for (Mount m : mounts) {
      if (!m.v2()) continue;
      try {
        return new Found(V2Cgroups.prepare(m.path(), own), passedOver);
      } catch (IOException e) {
        passedOver.add(e.getMessage());
      }
    }
    Optional<Mount> memory = v1With(mounts, "memory");
    Optional<Mount> cpu = v1With(mounts, "cpu");
    if (memory.isEmpty() || cpu.isEmpty()) {
      passedOver.add("no cgroup v1 hierarchy holds the " + (memory.isEmpty() ? "memory" : "cpu") + " controller");
    } else {
      try {
        return new Found(V1Cgroups.prepare(memory.get().path(), cpu.get().path(), own), passedOver);
      } catch (IOException e) {
        passedOver.add("cgroup v1: " + e.getMessage());
      }
    }
    if (mounts.isEmpty()) return new NotFound("no cgroup file system is mounted");
    return new NotFound(String.join("; ", passedOver));
  }

  private static Optional<Mount> v1With(List<Mount> mounts, String controller) {
    return mounts.stream().filter(m -> !m.v2() && m.options().contains(controller)).findFirst();
  }
}
