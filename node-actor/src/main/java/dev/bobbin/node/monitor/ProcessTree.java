package dev.bobbin.node.monitor;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * A container's processes: its root and every descendant, as one reading of {@code /proc} found
 * them, with the number of readings each has been seen in before (its age). As YARN's monitor, a
 * process seen for the first time may briefly push the tree over its limit (a fork copies its
 * parent) without the tree being held to it.
 */
public record ProcessTree(long rootPid, List<ProcStat> processes, Map<Long, Integer> ages, long pageSize) {

  /** The tree under {@code rootPid} among {@code all}; empty when the root is gone. */
  public static ProcessTree of(long rootPid, Collection<ProcStat> all, Map<Long, Integer> agesBefore,
      long pageSize) {
    Map<Long, List<ProcStat>> children = new HashMap<>();
    ProcStat root = null;
    for (ProcStat p : all) {
      children.computeIfAbsent(p.ppid(), k -> new ArrayList<>()).add(p);
      if (p.pid() == rootPid) root = p;
    }
    List<ProcStat> tree = new ArrayList<>();
    Map<Long, Integer> ages = new HashMap<>();
    if (root != null) {
      Deque<ProcStat> todo = new ArrayDeque<>(List.of(root));
      while (!todo.isEmpty()) {
        ProcStat p = todo.pop();
        tree.add(p);
        ages.put(p.pid(), agesBefore.getOrDefault(p.pid(), -1) + 1);
        children.getOrDefault(p.pid(), List.of()).forEach(todo::push);
      }
    }
    return new ProcessTree(rootPid, List.copyOf(tree), Map.copyOf(ages), pageSize);
  }

  public boolean isEmpty() {
    return processes.isEmpty();
  }

  /** Resident memory of the processes at least {@code minAge} readings old. */
  public long rssBytes(int minAge) {
    long pages = 0;
    for (ProcStat p : processes) if (ages.get(p.pid()) >= minAge) pages += p.rssPages();
    return pages * pageSize;
  }

  /** Virtual memory of the processes at least {@code minAge} readings old. */
  public long vmemBytes(int minAge) {
    long bytes = 0;
    for (ProcStat p : processes) if (ages.get(p.pid()) >= minAge) bytes += p.vsizeBytes();
    return bytes;
  }

  /** User and system CPU time of the live processes, in clock ticks. */
  public long cpuTicks() {
    long ticks = 0;
    for (ProcStat p : processes) ticks += p.utimeTicks() + p.stimeTicks();
    return ticks;
  }

  /** A table of the processes, as YARN's monitor dumps it into a killed container's diagnostics. */
  public String dump(LongFunction<String> commandLine, long ticksPerSecond) {
    StringBuilder b = new StringBuilder("\t|- PID PPID PGRPID SESSID CMD_NAME USER_MODE_TIME(MILLIS) "
        + "SYSTEM_TIME(MILLIS) VMEM_USAGE(BYTES) RSSMEM_USAGE(PAGES) FULL_CMD_LINE\n");
    for (ProcStat p : processes) {
      b.append(String.format("\t|- %d %d %d %d (%s) %d %d %d %d %s%n", p.pid(), p.ppid(), p.pgrp(), p.session(),
          p.name(), p.utimeTicks() * 1000 / ticksPerSecond, p.stimeTicks() * 1000 / ticksPerSecond,
          p.vsizeBytes(), p.rssPages(), commandLine.apply(p.pid())));
    }
    return b.toString();
  }
}
