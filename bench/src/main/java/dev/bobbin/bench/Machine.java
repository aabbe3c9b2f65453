package dev.bobbin.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** What the figures were measured on: cores, memory, CPU, Java, and how busy the machine was. */
final class Machine {
  private Machine() {}

  static String describe() {
    return String.format(Locale.ROOT, "%d cores (%s), %s RAM, %s %s, %s %s",
        Runtime.getRuntime().availableProcessors(), cpuModel(), memTotal(),
        System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"),
        System.getProperty("os.name"), System.getProperty("os.version"));
  }

  /** The 1, 5 and 15 minute load averages, e.g. "0.52 1.10 2.00". */
  static String loadAverage() {
    try {
      String[] f = firstLine(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      double l = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
      return l < 0 ? "unknown" : String.format(Locale.ROOT, "%.2f", l);
    }
  }

  /** Cumulative CPU time (user + system) of a process in nanoseconds, from /proc; -1 if unknown. */
  static long processCpuNanos(long pid) {
    try {
      String stat = firstLine(Path.of("/proc/" + pid + "/stat"));
      // The command name may hold spaces; the fields after its closing parenthesis are fixed.
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split("\\s+");
      long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
      return ticks * (1_000_000_000L / clockTicks());
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /**
   * CPU time of a JVM's JIT compiler threads ("C1 CompilerThre…", "C2 CompilerThre…"), from
   * /proc; -1 if unknown. A fresh RM JVM compiles for tens of seconds under load, so a figure of
   * CPU per request is only fair with this part shown apart.
   */
  static long jitCpuNanos(long pid) {
    Map<String, Long> byGroup = cpuNanosByThreadGroup(pid);
    return byGroup.isEmpty() ? -1 : byGroup.getOrDefault(JIT, 0L);
  }

  static final String JIT = "JIT compiler";

  /**
   * CPU time of a process's threads in nanoseconds, from /proc, summed by thread name less its
   * number ("db-3" and "db-4" are "db"; both JIT compilers are {@link #JIT}). Linux keeps the first
   * 15 characters of a name, so Pekko's actor dispatchers (the default, the internal and the
   * blocking-I/O ones) all read as "bobbin-pekko.ac", and persistence's as "bobbin-pekko.pe"
   * ({@link ThreadCpu#LEGEND}). Empty if unknown.
   */
  static Map<String, Long> cpuNanosByThreadGroup(long pid) {
    return threadTimes(pid).cpu();
  }

  /** {@link #cpuNanosByThreadGroup}, with the kernel's part of each group beside it. */
  static ThreadTimes threadTimes(long pid) {
    Map<String, Long> ticks = new TreeMap<>();
    Map<String, Long> kernelTicks = new TreeMap<>();
    try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
      for (Path t : (Iterable<Path>) tasks::iterator) {
        String comm;
        String stat;
        try {
          comm = firstLine(t.resolve("comm"));
          stat = firstLine(t.resolve("stat"));
        } catch (IOException gone) {
          continue;
        }
        // utime and stime, the 14th and 15th fields of stat(5)
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split("\\s+");
        long user = Long.parseLong(f[11]);
        long system = Long.parseLong(f[12]);
        ticks.merge(threadGroup(comm), user + system, Long::sum);
        kernelTicks.merge(threadGroup(comm), system, Long::sum);
      }
    } catch (IOException | RuntimeException e) {
      return ThreadTimes.NONE;
    }
    long nanosPerTick = 1_000_000_000L / clockTicks();
    ticks.replaceAll((group, t) -> t * nanosPerTick);
    kernelTicks.replaceAll((group, t) -> t * nanosPerTick);
    return new ThreadTimes(ticks, kernelTicks);
  }

  static String threadGroup(String comm) {
    if (comm.contains("CompilerThre")) return JIT;
    String group = comm.strip().replaceFirst("[-#]?\\d+$", "").strip();
    return group.isEmpty() ? comm.strip() : group;
  }

  /** Resident memory of a process in bytes, from /proc; -1 if unknown. */
  static long residentBytes(long pid) {
    try (BufferedReader r = Files.newBufferedReader(Path.of("/proc/" + pid + "/status"))) {
      for (String line; (line = r.readLine()) != null; ) {
        if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
      }
    } catch (IOException | RuntimeException e) {
      return -1;
    }
    return -1;
  }

  /** USER_HZ: 100 on every Linux this runs on. */
  private static long clockTicks() {
    return 100;
  }

  private static String cpuModel() {
    try (BufferedReader r = Files.newBufferedReader(Path.of("/proc/cpuinfo"))) {
      for (String line; (line = r.readLine()) != null; ) {
        if (line.startsWith("model name")) return line.substring(line.indexOf(':') + 1).trim();
      }
    } catch (IOException e) {
      return "cpu unknown";
    }
    return "cpu unknown";
  }

  private static String memTotal() {
    try (BufferedReader r = Files.newBufferedReader(Path.of("/proc/meminfo"))) {
      for (String line; (line = r.readLine()) != null; ) {
        if (line.startsWith("MemTotal:")) {
          long kb = Long.parseLong(line.replaceAll("\\D", ""));
          return String.format(Locale.ROOT, "%.1f GiB", kb / 1024.0 / 1024.0);
        }
      }
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
    return "unknown";
  }

  private static String firstLine(Path p) throws IOException {
    // procfs reports size 0; read a line rather than trusting Files.readString.
    try (BufferedReader r = Files.newBufferedReader(p)) {
      String line = r.readLine();
      if (line == null) throw new IOException("empty " + p);
      return line;
    }
  }
}
