package dev.bobbin.node.monitor;

/**
 * One process as {@code /proc/PID/stat} describes it, with the fields the container monitor reads.
 *
 * @param utimeTicks user CPU time in clock ticks
 * @param stimeTicks system CPU time in clock ticks
 * @param vsizeBytes virtual memory size
 * @param rssPages resident set size in pages
 */
public record ProcStat(long pid, long ppid, long pgrp, long session, String name, long utimeTicks,
    long stimeTicks, long vsizeBytes, long rssPages) {

  /**
   * Parses a {@code stat} line. The process name sits in parentheses and may itself hold spaces
   * and parentheses, so the fields after it are counted from the last ')'.
   *
   * @throws IllegalArgumentException for a line that is not one
   */
  public static ProcStat parse(String line) {
    int open = line.indexOf('(');
    int close = line.lastIndexOf(')');
    if (open < 0 || close < open) throw new IllegalArgumentException("Not a /proc stat line: " + line);
    long pid = Long.parseLong(line.substring(0, open).trim());
    String name = line.substring(open + 1, close);
    // After the name: state(3) ppid(4) pgrp(5) session(6) tty(7) tpgid(8) flags(9) minflt(10)
    // cminflt(11) majflt(12) cmajflt(13) utime(14) stime(15) ... vsize(23) rss(24).
    String[] f = line.substring(close + 1).trim().split("\\s+");
    if (f.length < 22) throw new IllegalArgumentException("Short /proc stat line: " + line);
    return new ProcStat(pid, Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]), name,
        Long.parseLong(f[11]), Long.parseLong(f[12]), Long.parseLong(f[20]), Long.parseLong(f[21]));
  }
}
