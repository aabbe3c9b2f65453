package dev.bobbin.bench;

import java.util.Arrays;

/** Latency samples in nanoseconds, with percentiles. Safe to share between threads. */
final class Latency {
  private long[] samples = new long[1024];
  private int size;

  synchronized void add(long nanos) {
    if (size == samples.length) samples = Arrays.copyOf(samples, size * 2);
    samples[size++] = nanos;
  }

  synchronized void addAll(Latency other) {
    long[] theirs;
    int n;
    synchronized (other) {
      theirs = other.samples;
      n = other.size;
    }
    for (int i = 0; i < n; i++) add(theirs[i]);
  }

  synchronized int count() {
    return size;
  }

  synchronized void clear() {
    size = 0;
  }

  /** The {@code p}-th percentile (0..100) in nanoseconds; NaN without samples. */
  synchronized double percentile(double p) {
    if (size == 0) return Double.NaN;
    long[] sorted = Arrays.copyOf(samples, size);
    Arrays.sort(sorted);
    int idx = (int) Math.ceil(p / 100.0 * size) - 1;
    return sorted[Math.max(0, Math.min(size - 1, idx))];
  }
}
