package dev.bobbin.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsFileTest {
  @TempDir Path dir;

  private static Report report(String key, String title, String line) {
    Report r = new Report(key, title);
    r.line(line);
    return r;
  }

  @Test
  void aRunReplacesItsScenariosSectionAndKeepsTheRest() throws Exception {
    Path file = dir.resolve("bench-results").resolve("benchmarks.md");

    ResultsFile.update(file, report("journal", "7. Journal floor", "first run"), "bin/bobbin bench journal", "0.1", "0.2");
    Files.writeString(file, Files.readString(file) + "\nA note of the reader's.\n");
    ResultsFile.update(file, report("scheduler", "1. Scheduler core", "scheduler run"), "bin/bobbin bench scheduler",
        "0.1", "0.2");
    ResultsFile.update(file, report("journal", "7. Journal floor", "second run"), "bin/bobbin bench journal", "0.1", "0.2");

    String text = Files.readString(file);
    assertThat(text).startsWith("# Bobbin benchmarks")
        .contains("second run", "scheduler run", "A note of the reader's.", "with `bin/bobbin bench journal`")
        .doesNotContain("first run");
    assertThat(text.split("<!-- bench:journal -->", -1)).hasSize(2);
  }
}
