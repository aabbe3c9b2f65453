package dev.bobbin.node.health;

import java.util.Locale;

/**
 * When a directory the NodeManager can use is still full, as YARN's DirectoryCollection decides:
 * its disk is used above {@code maxUtilizationPercent} (or entirely), or has less than {@code
 * minFreeMb} free.
 */
public record DiskThresholds(double maxUtilizationPercent, long minFreeMb) {
  private static final long MB = 1024 * 1024;

  /** Why the directory cannot take new containers; empty when it can. */
  public String problem(DirProbe probe) {
    if (!probe.accessProblem().isEmpty()) return probe.accessProblem();
    if (probe.totalBytes() <= 0) return "size of its disk unknown";
    double usedPercent = 100.0 - 100.0 * probe.usableBytes() / probe.totalBytes();
    if (usedPercent > maxUtilizationPercent || probe.usableBytes() == 0) {
      return String.format(Locale.ROOT, "disk %.1f%% used, above the limit of %s%%", usedPercent,
          percent(maxUtilizationPercent));
    }
    long freeMb = probe.usableBytes() / MB;
    if (freeMb < minFreeMb) return "disk has " + freeMb + " MB free, below the limit of " + minFreeMb + " MB";
    return "";
  }

  private static String percent(double p) {
    return p == Math.rint(p) ? Long.toString((long) p) : Double.toString(p);
  }
}
