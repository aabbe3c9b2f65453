package dev.bobbin.node.cgroups;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The cgroups of one NodeManager's containers, below the NodeManager's own cgroup in each
 * hierarchy it uses: one cgroup per container, named by its id. Stateless, so any thread may use it.
 */
public interface ContainerCgroups {
  /** What the NodeManager uses, as its start-up log says it. */
  String description();

  /** The files through which a process joins the container's cgroups, one per hierarchy. */
  List<Path> procsFiles(String containerId);

  /**
   * Makes the container's cgroups with a CPU weight from its vcores and, when {@code
   * memoryLimitBytes} is positive, that memory limit.
   */
  void create(String containerId, long memoryLimitBytes, int vcores) throws IOException;

  boolean exists(String containerId);

  /** The memory its cgroup charges now (page cache included, as YARN reads it). */
  OptionalLong memoryUsage(String containerId);

  MemoryEvents memoryEvents(String containerId);

  /** The processes in any of its cgroups. */
  Set<Long> pids(String containerId);

  /** Every container that has a cgroup here. */
  Set<String> containers();

  /** Removes its cgroups; false while processes still hold one. */
  boolean remove(String containerId);

  /** Removes the NodeManager's own cgroups, when no container's is left in them. */
  boolean removeOwn();

  /**
   * What a container's memory cgroup recorded.
   *
   * @param oomKills processes the kernel killed for memory; -1 where the kernel does not count them
   * @param limitHits how often its usage reached the limit (v1 {@code memory.failcnt}, v2 the {@code max} event)
   * @param peakBytes the most it used; -1 when unknown
   * @param limitBytes its limit; -1 for none
   */
  record MemoryEvents(long oomKills, long limitHits, long peakBytes, long limitBytes, Path cgroup) {}

  /** The name of a node's own cgroup: its node id, with {@code :} (unwelcome in cgroup paths) as {@code _}. */
  static String nodeDirName(String nodeId) {
    return nodeId.replace(':', '_').replace('/', '_');
  }
}
