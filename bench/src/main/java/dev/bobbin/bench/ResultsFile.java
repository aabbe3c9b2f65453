package dev.bobbin.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * A results file: a frame, and one generated section per scenario between {@code <!-- bench:KEY -->}
 * and {@code <!-- /bench:KEY -->}. A run replaces its scenario's section and leaves everything else
 * as it is, so a file collects the latest run of each scenario.
 */
final class ResultsFile {
  static final List<String> TITLES = List.of(
      "1. Scheduler core", "2. Full path", "3. Heartbeats", "4. Submissions", "5. Recovery", "6. Memory",
      "7. Journal floor");

  private ResultsFile() {}

  static void update(Path file, Report report, String command, String loadBefore, String loadAfter) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    String text = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : skeleton();
    String start = "<!-- bench:" + report.key + " -->";
    String end = "<!-- /bench:" + report.key + " -->";
    String section = start + "\n" + render(report, command, loadBefore, loadAfter) + end;
    int s = text.indexOf(start);
    int e = text.indexOf(end);
    if (s >= 0 && e > s) {
      text = text.substring(0, s) + section + text.substring(e + end.length());
    } else {
      text = text.stripTrailing() + "\n\n" + section + "\n";
    }
    Path tmp = Files.createTempFile(file.toAbsolutePath().getParent(), ".benchmarks", ".tmp");
    Files.writeString(tmp, text, StandardCharsets.UTF_8);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  static String render(Report r, String command, String loadBefore, String loadAfter) {
    StringBuilder b = new StringBuilder();
    b.append("## ").append(r.title).append("\n\n");
    b.append("Measured ").append(ZonedDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm z")))
        .append(" with `").append(command).append("`  \n");
    b.append("Machine: ").append(Machine.describe()).append("  \n");
    b.append("Load average (1, 5, 15 min) before: ").append(loadBefore).append("; after: ").append(loadAfter)
        .append("\n\n");
    for (String line : r.lines) b.append(line).append("\n");
    if (!r.lines.isEmpty() && !r.lines.get(r.lines.size() - 1).isEmpty()) b.append("\n");
    return b.toString();
  }

  private static String skeleton() {
    StringBuilder b = new StringBuilder("""
        # Bobbin benchmarks

        `bin/bobbin bench` runs the real RM (real entities, real scheduler, real journal) against
        simulated NodeManagers and ApplicationMasters on 127.0.0.1, in the spirit of Hadoop's
        Scheduler Load Simulator. Each section below is written by the scenario it names and can be
        re-run with the command it shows; a re-run replaces it, and text outside the sections is kept.

        """);
    for (int i = 0; i < BenchOptions.SCENARIOS.size(); i++) {
      String key = BenchOptions.SCENARIOS.get(i);
      b.append("<!-- bench:").append(key).append(" -->\n## ").append(TITLES.get(i))
          .append("\n\nNot measured yet: `bin/bobbin bench ").append(key).append("`.\n\n<!-- /bench:")
          .append(key).append(" -->\n\n");
    }
    return b.toString();
  }
}
