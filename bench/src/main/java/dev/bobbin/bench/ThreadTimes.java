package dev.bobbin.bench;

import java.util.Map;

/**
 * One reading of a process's CPU time by thread group, from /proc ({@link Machine#threadTimes}), in
 * nanoseconds: all of it, and the part spent in the kernel on the threads' behalf (system calls,
 * and the wake-ups and sleeps of threads handing work to each other).
 */
record ThreadTimes(Map<String, Long> cpu, Map<String, Long> kernel) {
  static final ThreadTimes NONE = new ThreadTimes(Map.of(), Map.of());
}
