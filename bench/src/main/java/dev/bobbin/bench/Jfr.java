package dev.bobbin.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Java Flight Recorder around a measured phase (in this JVM), and a summary of where the CPU went:
 * the hottest top frames of {@code jdk.ExecutionSample}, and the hottest first Bobbin frame on
 * each sampled stack (which Bobbin code the time is spent under).
 */
final class Jfr implements AutoCloseable {
  private final Recording recording;
  private final Path file;

  private Jfr(Recording recording, Path file) {
    this.recording = recording;
    this.file = file;
  }

  /** Starts a recording with the "profile" settings, or returns null when not wanted. */
  static Jfr start(boolean wanted, Path file) throws IOException {
    if (!wanted) return null;
    try {
      Recording r = new Recording(Configuration.getConfiguration("profile"));
      r.setToDisk(true);
      r.setDestination(file);
      r.start();
      return new Jfr(r, file);
    } catch (ParseException e) {
      throw new IOException("JFR profile settings unreadable", e);
    }
  }

  /** Stops the recording and adds its summary to {@code report}. */
  void summarizeInto(Report report, String what) {
    close();
    summarize(file, report, what);
  }

  static void summarize(Path file, Report report, String what) {
    try {
      Map<String, Integer> top = new HashMap<>();
      Map<String, Integer> bobbin = new HashMap<>();
      int samples = 0;
      try (RecordingFile f = new RecordingFile(file)) {
        while (f.hasMoreEvents()) {
          RecordedEvent e = f.readEvent();
          if (!e.getEventType().getName().equals("jdk.ExecutionSample")) continue;
          RecordedStackTrace st = e.getStackTrace();
          if (st == null || st.getFrames().isEmpty()) continue;
          samples++;
          top.merge(frame(st.getFrames().get(0)), 1, Integer::sum);
          for (RecordedFrame fr : st.getFrames()) {
            String type = fr.getMethod().getType().getName();
            if (type.startsWith("dev.bobbin.") && !type.startsWith("dev.bobbin.bench.")) {
              bobbin.merge(frame(fr), 1, Integer::sum);
              break;
            }
          }
        }
      }
      report.line("JFR profile of " + what + " (" + samples + " execution samples, `" + file + "`):").blank();
      List<List<String>> rows = new ArrayList<>();
      rows.add(List.of("hottest top frames", "share", "hottest first Bobbin frame on the stack", "share"));
      List<Map.Entry<String, Integer>> t = sorted(top);
      List<Map.Entry<String, Integer>> b = sorted(bobbin);
      for (int i = 0; i < 12 && (i < t.size() || i < b.size()); i++) {
        rows.add(List.of(
            i < t.size() ? "`" + t.get(i).getKey() + "`" : "", i < t.size() ? pct(t.get(i).getValue(), samples) : "",
            i < b.size() ? "`" + b.get(i).getKey() + "`" : "", i < b.size() ? pct(b.get(i).getValue(), samples) : ""));
      }
      report.table(rows);
    } catch (IOException | RuntimeException e) {
      report.line("JFR summary unavailable: " + e).blank();
    }
  }

  private static String frame(RecordedFrame f) {
    String type = f.getMethod().getType().getName();
    return type.substring(type.lastIndexOf('.') + 1) + "." + f.getMethod().getName();
  }

  private static List<Map.Entry<String, Integer>> sorted(Map<String, Integer> m) {
    List<Map.Entry<String, Integer>> l = new ArrayList<>(m.entrySet());
    l.sort((x, y) -> Integer.compare(y.getValue(), x.getValue()));
    return l;
  }

  private static String pct(int n, int total) {
    return String.format(Locale.ROOT, "%.1f%%", total == 0 ? 0 : 100.0 * n / total);
  }

  @Override
  public void close() {
    if (recording.getState() == jdk.jfr.RecordingState.RUNNING) recording.stop();
    recording.close();
  }
}
