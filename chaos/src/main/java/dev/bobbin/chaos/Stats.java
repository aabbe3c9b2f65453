package dev.bobbin.chaos;

import java.util.List;

/** Nearest-rank percentiles of failover times. */
final class Stats {
  private Stats() {}

  /** The smallest value with at least {@code p} percent of the values at or below it; -1 if none. */
  static long percentile(List<Long> values, double p) {
    if (values.isEmpty()) return -1;
    List<Long> sorted = values.stream().sorted().toList();
    int rank = (int) Math.ceil(p / 100.0 * sorted.size());
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
  }
}
