package dev.bobbin.node.cgroups;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * Cgroup v1: a container has a cgroup in the memory hierarchy and one in the cpu hierarchy.
 * {@code memory.limit_in_bytes} holds it to its memory, {@code cpu.shares} is 1024 per vcore (as
 * YARN's CGroupsCpuResourceHandlerImpl), and {@code memory.oom_control} counts the processes the
 * kernel killed for memory ({@code oom_kill}, on kernels since 4.13; {@code memory.failcnt} on older ones).
 */
final class V1Cgroups implements ContainerCgroups {
  static final int SHARES_PER_VCORE = 1024;

  private final Path memoryMount;
  private final Path cpuMount;
  private final Path memory;
  private final Path cpu;

  /** @param own the NodeManager's cgroup, relative to each mount */
  private V1Cgroups(Path memoryMount, Path cpuMount, Path own) {
    this.memoryMount = memoryMount;
    this.cpuMount = cpuMount;
    this.memory = memoryMount.resolve(own);
    this.cpu = cpuMount.resolve(own);
  }

  /** Makes the NodeManager's own cgroup in both hierarchies. */
  static V1Cgroups prepare(Path memoryMount, Path cpuMount, Path own) throws IOException {
    V1Cgroups c = new V1Cgroups(memoryMount, cpuMount, own);
    CgroupFiles.makeBelow(memoryMount, c.memory);
    CgroupFiles.makeBelow(cpuMount, c.cpu);
    return c;
  }

  static int shares(int vcores) {
    return SHARES_PER_VCORE * Math.max(1, vcores);
  }

  @Override
  public String description() {
    return "cgroup v1, memory " + memory + " and cpu " + cpu;
  }

  @Override
  public List<Path> procsFiles(String containerId) {
    return List.of(memory.resolve(containerId).resolve("cgroup.procs"), cpu.resolve(containerId).resolve("cgroup.procs"));
  }

  @Override
  public void create(String containerId, long memoryLimitBytes, int vcores) throws IOException {
    Path m = memory.resolve(containerId);
    Path c = cpu.resolve(containerId);
    CgroupFiles.makeBelow(memory, m);
    CgroupFiles.makeBelow(cpu, c);
    if (memoryLimitBytes > 0) CgroupFiles.write(m.resolve("memory.limit_in_bytes"), Long.toString(memoryLimitBytes));
    CgroupFiles.write(c.resolve("cpu.shares"), Integer.toString(shares(vcores)));
  }

  @Override
  public boolean exists(String containerId) {
    return java.nio.file.Files.isDirectory(memory.resolve(containerId));
  }

  @Override
  public OptionalLong memoryUsage(String containerId) {
    return CgroupFiles.number(memory.resolve(containerId).resolve("memory.usage_in_bytes"));
  }

  @Override
  public MemoryEvents memoryEvents(String containerId) {
    Path m = memory.resolve(containerId);
    OptionalLong limit = CgroupFiles.number(m.resolve("memory.limit_in_bytes"));
    return new MemoryEvents(CgroupFiles.keyed(m.resolve("memory.oom_control"), "oom_kill").orElse(-1),
        CgroupFiles.number(m.resolve("memory.failcnt")).orElse(0),
        CgroupFiles.number(m.resolve("memory.max_usage_in_bytes")).orElse(-1),
        // v1 writes "no limit" as the largest page-aligned number.
        limit.isPresent() && limit.getAsLong() < Long.MAX_VALUE / 2 ? limit.getAsLong() : -1, m);
  }

  @Override
  public Set<Long> pids(String containerId) {
    Set<Long> out = new LinkedHashSet<>();
    procsFiles(containerId).forEach(f -> out.addAll(CgroupFiles.pids(f)));
    return out;
  }

  @Override
  public Set<String> containers() {
    Set<String> out = new TreeSet<>(CgroupFiles.children(memory));
    out.addAll(CgroupFiles.children(cpu));
    return out;
  }

  @Override
  public boolean remove(String containerId) {
    boolean m = CgroupFiles.remove(memory.resolve(containerId));
    boolean c = CgroupFiles.remove(cpu.resolve(containerId));
    return m && c;
  }

  @Override
  public boolean removeOwn() {
    boolean m = memory.equals(memoryMount) || CgroupFiles.remove(memory);
    boolean c = cpu.equals(cpuMount) || CgroupFiles.remove(cpu);
    return m && c;
  }
}
