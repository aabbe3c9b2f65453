package dev.bobbin.node.monitor;

import dev.bobbin.protocol.ExitStatus;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * A container's memory limits and whether each is enforced, with YARN's rule: a tree is over a
 * limit when all of it together uses more than twice the limit, or its processes seen in an
 * earlier reading use more than the limit. The virtual limit is checked first, as YARN does.
 *
 * @param pmemBytes the container's allocated memory
 * @param vmemBytes the allocation times {@code vmem-pmem-ratio}
 */
public record MemoryLimit(long pmemBytes, long vmemBytes, boolean pmemChecked, boolean vmemChecked) {

  /** Why the container must be killed, as its diagnostics and exit status will say. */
  public record Breach(int exitStatus, String diagnostics) {}

  public static MemoryLimit of(long allocatedMb, double vmemPmemRatio, boolean pmemChecked, boolean vmemChecked) {
    long pmem = allocatedMb * 1024 * 1024;
    return new MemoryLimit(pmem, (long) (pmem * vmemPmemRatio), pmemChecked, vmemChecked);
  }

  /** @param dump the tree as a table, asked for only when the container is to be killed */
  public Optional<Breach> check(ProcessTree tree, String containerId, Function<ProcessTree, String> dump) {
    long vmem = tree.vmemBytes(0);
    long pmem = tree.rssBytes(0);
    if (vmemChecked && over(vmem, tree.vmemBytes(1), vmemBytes)) {
      return Optional.of(new Breach(ExitStatus.KILLED_EXCEEDED_VMEM,
          message("virtual", vmem - vmemBytes, vmem, pmem, tree, containerId, dump)));
    }
    if (pmemChecked && over(pmem, tree.rssBytes(1), pmemBytes)) {
      return Optional.of(new Breach(ExitStatus.KILLED_EXCEEDED_PMEM,
          message("physical", pmem - pmemBytes, vmem, pmem, tree, containerId, dump)));
    }
    return Optional.empty();
  }

  private static boolean over(long all, long aged, long limit) {
    return all > 2 * limit || aged > limit;
  }

  private String message(String kind, long delta, long vmem, long pmem, ProcessTree tree, String containerId,
      Function<ProcessTree, String> dump) {
    return String.format(Locale.ROOT, "Container [pid=%d,containerID=%s] is running %dB beyond the '%s' memory limit. ",
        tree.rootPid(), containerId, delta, kind.toUpperCase(Locale.ROOT))
        + "Current usage: " + bytes(pmem) + "B of " + bytes(pmemBytes) + "B physical memory used; "
        + bytes(vmem) + "B of " + bytes(vmemBytes) + "B virtual memory used. Killing container.\n"
        + "Dump of the process-tree for " + containerId + " :\n" + dump.apply(tree);
  }

  private static final String PREFIXES = "KMGTPE";

  /** As YARN writes sizes: 512 M, 1.2 G; whole numbers below 1024 bare. */
  public static String bytes(long n) {
    if (n < 1024) return Long.toString(n);
    int shift = 10;
    int i = 0;
    while (i + 1 < PREFIXES.length() && n >= 1L << (shift + 10)) {
      shift += 10;
      i++;
    }
    if ((n & ((1L << shift) - 1)) == 0) return (n >> shift) + " " + PREFIXES.charAt(i);
    String s = String.format(Locale.ROOT, "%.1f", n / (double) (1L << shift));
    if (s.startsWith("1024") && i + 1 < PREFIXES.length()) {
      s = String.format(Locale.ROOT, "%.1f", n / (double) (1L << (shift + 10)));
      i++;
    }
    return s + " " + PREFIXES.charAt(i);
  }
}
