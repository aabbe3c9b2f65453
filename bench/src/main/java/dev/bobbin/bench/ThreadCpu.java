package dev.bobbin.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The RM's CPU over a measured phase, by thread group: which pool each request's cost lands on. */
final class ThreadCpu {
  private ThreadCpu() {}

  /** What the RM's thread groups are, for a report's line above the table. */
  static final String LEGEND =
      "`bobbin-pekko.ac` is Pekko's actor dispatchers, which Linux names alike: the default "
      + "one (actors, HTTP streams, sharding), the internal one (sharding's coordination) and "
      + "the blocking-I/O one (the checkpoint writer's journal reads); `bobbin-pekko.io` is "
      + "Pekko's TCP selector, `db` the journal's Slick threads (JDBC, and H2 itself on the "
      + "embedded journal), `bobbin-pekko.pe` Pekko Persistence's dispatcher, `am-launcher` "
      + "the AM launches; threads that ended during the phase are missing. The last column is "
      + "each group's system time: its system calls, and the wake-ups and sleeps of threads "
      + "handing work to each other.";

  /** Adds a measured phase's {@link #table} to a report, with the legend above it. */
  static void addTo(Report r, List<List<String>> table) {
    r.line("The RM's CPU by thread, from /proc over the measured phase: " + LEGEND).blank();
    r.table(table);
    r.figure("threads", table.size() - 1);
  }

  /** Groups under this share of the phase's CPU are summed as "other". */
  private static final double SHOWN = 0.01;

  /**
   * A table of the groups' CPU between two {@link Machine#threadTimes} readings, largest first, as
   * cores, as milliseconds per unit of work ({@code done} units over {@code secs}), and with the
   * kernel's part of each. A thread that ended between the readings takes its time with it, so
   * short-lived threads are missing; the RM's pools live as long as it does.
   */
  static List<List<String>> table(ThreadTimes before, ThreadTimes after, double secs, double done, String unit) {
    Map<String, Long> used = delta(before.cpu(), after.cpu());
    Map<String, Long> kernel = delta(before.kernel(), after.kernel());
    long total = used.values().stream().mapToLong(Long::longValue).sum();
    List<List<String>> rows = new ArrayList<>();
    rows.add(List.of("thread group", "cores", "ms per " + unit, "share", "of it in the kernel"));
    long other = 0;
    long otherKernel = 0;
    for (var e : used.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).toList()) {
      long k = kernel.getOrDefault(e.getKey(), 0L);
      if (e.getValue() < SHOWN * total) {
        other += e.getValue();
        otherKernel += k;
      } else {
        rows.add(row("`" + e.getKey() + "`", e.getValue(), k, total, secs, done));
      }
    }
    if (other > 0) rows.add(row("other", other, otherKernel, total, secs, done));
    return rows;
  }

  /** One group's cores between two readings. */
  static double cores(ThreadTimes before, ThreadTimes after, String group, double secs) {
    return (after.cpu().getOrDefault(group, 0L) - before.cpu().getOrDefault(group, 0L)) / 1e9 / secs;
  }

  /** Each group's time between two readings, for the groups that used any. */
  private static Map<String, Long> delta(Map<String, Long> before, Map<String, Long> after) {
    Map<String, Long> used = new HashMap<>();
    after.forEach((group, ns) -> {
      long d = ns - before.getOrDefault(group, 0L);
      if (d > 0) used.put(group, d);
    });
    return used;
  }

  private static List<String> row(String name, long ns, long kernelNs, long total, double secs, double done) {
    return List.of(name, String.format(Locale.ROOT, "%.2f", ns / 1e9 / secs),
        done > 0 ? String.format(Locale.ROOT, "%.2f", ns / 1e6 / done) : "–",
        String.format(Locale.ROOT, "%.0f%%", 100.0 * ns / total),
        String.format(Locale.ROOT, "%.0f%%", 100.0 * kernelNs / ns));
  }
}
