package dev.bobbin.node.cgroups;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Cgroup v2: a container has one cgroup, with {@code memory.max} holding it to its memory and
 * {@code cpu.weight} 100 per vcore, at most 10000 (as YARN's CGroupsV2CpuResourceHandlerImpl);
 * {@code memory.events} counts the processes the kernel killed for memory. The controllers must be
 * enabled in {@code cgroup.subtree_control} of every cgroup above a container's, the NodeManager's
 * own included, which therefore holds no process itself.
 */
final class V2Cgroups implements ContainerCgroups {
  static final Set<String> CONTROLLERS = Set.of("memory", "cpu");
  static final int WEIGHT_PER_VCORE = 100;
  static final int MAX_WEIGHT = 10_000;

  private final Path mount;
  private final Path own;

  private V2Cgroups(Path mount, Path own) {
    this.mount = mount;
    this.own = own;
  }

  /**
   * Makes the NodeManager's own cgroup below the mount, enabling memory and cpu for the children of
   * each cgroup from the mount down to it.
   *
   * @throws IOException when the mount lacks a controller, or a cgroup cannot be made or enabled
   */
  static V2Cgroups prepare(Path mount, Path ownRelative) throws IOException {
    Set<String> available = CgroupFiles.words(mount.resolve("cgroup.controllers"));
    if (!available.containsAll(CONTROLLERS)) {
      throw new IOException("cgroup v2 at " + mount + " offers controllers " + available + ", not memory and cpu");
    }
    Path dir = mount;
    enableForChildren(dir);
    for (Path segment : ownRelative) {
      dir = dir.resolve(segment.toString());
      CgroupFiles.makeBelow(mount, dir);
      enableForChildren(dir);
    }
    return new V2Cgroups(mount, dir);
  }

  private static void enableForChildren(Path cgroup) throws IOException {
    Set<String> enabled = CgroupFiles.words(cgroup.resolve("cgroup.subtree_control"));
    if (!enabled.containsAll(CONTROLLERS)) CgroupFiles.write(cgroup.resolve("cgroup.subtree_control"), "+memory +cpu");
  }

  static int weight(int vcores) {
    return Math.min(WEIGHT_PER_VCORE * Math.max(1, vcores), MAX_WEIGHT);
  }

  @Override
  public String description() {
    return "cgroup v2, " + own;
  }

  @Override
  public List<Path> procsFiles(String containerId) {
    return List.of(own.resolve(containerId).resolve("cgroup.procs"));
  }

  @Override
  public void create(String containerId, long memoryLimitBytes, int vcores) throws IOException {
    Path c = own.resolve(containerId);
    CgroupFiles.makeBelow(own, c);
    if (memoryLimitBytes > 0) CgroupFiles.write(c.resolve("memory.max"), Long.toString(memoryLimitBytes));
    CgroupFiles.write(c.resolve("cpu.weight"), Integer.toString(weight(vcores)));
  }

  @Override
  public boolean exists(String containerId) {
    return Files.isDirectory(own.resolve(containerId));
  }

  @Override
  public OptionalLong memoryUsage(String containerId) {
    return CgroupFiles.number(own.resolve(containerId).resolve("memory.current"));
  }

  @Override
  public MemoryEvents memoryEvents(String containerId) {
    Path c = own.resolve(containerId);
    Path events = c.resolve("memory.events");
    // memory.peak is there since Linux 5.19.
    return new MemoryEvents(CgroupFiles.keyed(events, "oom_kill").orElse(-1), CgroupFiles.keyed(events, "max").orElse(0),
        CgroupFiles.number(c.resolve("memory.peak")).orElse(-1), CgroupFiles.number(c.resolve("memory.max")).orElse(-1),
        c);
  }

  @Override
  public Set<Long> pids(String containerId) {
    return CgroupFiles.pids(own.resolve(containerId).resolve("cgroup.procs"));
  }

  @Override
  public Set<String> containers() {
    return CgroupFiles.children(own);
  }

  @Override
  public boolean remove(String containerId) {
    return CgroupFiles.remove(own.resolve(containerId));
  }

  @Override
  public boolean removeOwn() {
    return own.equals(mount) || CgroupFiles.remove(own);
  }
}
