package dev.bobbin.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The bench's quick runs, as the default suite's smoke check: they run and measure something. */
class BenchSmokeIT {

  private static Report run(String... args) {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    int rc = BenchMain.run(List.of(args), new PrintStream(buf, true, StandardCharsets.UTF_8));
    assertThat(rc).as(buf.toString(StandardCharsets.UTF_8)).isZero();
    assertThat(BenchMain.results).hasSize(1);
    return BenchMain.results.get(0);
  }

  /** The RM JVM's CPU is read from /proc, and its JIT compiler threads' share is a part of it. */
  private static void assertTheRmCpuIsMeasuredWithItsJitShare(Report r) {
    assertThat(r.figures.get("rm.cores")).isPositive();
    assertThat(r.figures.get("jit.cores")).isBetween(0.0, r.figures.get("rm.cores"));
  }

  /** The report splits the RM's CPU by thread group, per unit of work, with the journal's threads shown. */
  private static void assertTheRmCpuIsSplitByThread(Report r, String unit) {
    assertThat(r.figures.get("threads")).isPositive();
    assertThat(String.join("\n", r.lines))
        .contains("| thread group | cores | ms per " + unit + " | share | of it in the kernel |")
        .contains("| `db` |");
  }

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void theSchedulerCoreAllocatesUnderBothPolicies() {
    Report r = run("scheduler", "--quick", "--no-write");
    for (String policy : List.of("fifo", "fair")) {
      assertThat(r.figures.get("actor.200." + policy + ".warmUpRounds")).as("warm-up " + policy).isPositive();
      for (int shape : new int[] {1, 5, 25}) {
        assertThat(r.figures.get("pure.200." + policy + "." + shape)).as("pure " + policy + " " + shape).isPositive();
        assertThat(r.figures.get("actor.200." + policy + "." + shape)).as("actor " + policy + " " + shape).isPositive();
        assertThat(r.figures.get("actor.200." + policy + "." + shape + ".p99ms")).isPositive();
      }
    }
    assertThat(String.join("\n", r.lines)).contains("| 200 | fifo |").contains("| 200 | fair (drf) |");
  }

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void theFullPathDeliversDurableAllocationsOverHttp() {
    Report r = run("full-path", "--quick", "--no-write");
    assertThat(r.figures.get("delivered")).isPositive();
    assertThat(r.figures.get("heartbeats")).isPositive();
    assertTheRmCpuIsMeasuredWithItsJitShare(r);
    assertTheRmCpuIsSplitByThread(r, "durable allocation");
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void heartbeatsAreAnsweredPacedAndBackToBackAndTheTransportFloorIsMeasured() {
    Report r = run("heartbeats", "--quick", "--no-write");
    assertThat(r.figures.get("paced.rate")).isPositive();
    assertThat(r.figures.get("max.rate")).isPositive();
    assertThat(r.figures.get("paced.cores")).isPositive();
    assertThat(r.figures.get("floor.rate")).isPositive();
    assertThat(r.figures.get("floor.cores")).isPositive();
    assertThat(r.figures.get("paced.threads")).isPositive();
    assertThat(r.figures.get("max.threads")).isPositive();
    assertThat(r.figures.get("floor.threads")).isPositive();
    assertThat(String.join("\n", r.lines))
        .contains("| thread group | cores | ms per 1,000 heartbeats | share | of it in the kernel |")
        .contains("| `bobbin-pekko.ac` |").contains("| `transport-floor` |");
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void submissionsAreAcceptedOverTheRestApi() {
    Report r = run("submissions", "--quick", "--no-write");
    assertThat(r.figures.get("rate")).isPositive();
    assertThat(r.figures.get("p99ms")).isPositive();
    assertTheRmCpuIsMeasuredWithItsJitShare(r);
    assertTheRmCpuIsSplitByThread(r, "submission");
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void theJournalFloorMeasuresEachPhaseAndTheDesignsFloorsAndIsProfiledWhenAsked() {
    Report r = run("journal", "--quick", "--no-write", "--jfr");
    BenchMain.deleteQuietly(BenchMain.lastWork); // kept for the recording, which the report has read
    assertThat(r.figures.get("100.new.rate")).isPositive();
    assertThat(r.figures.get("100.again.rate")).isPositive();
    assertThat(r.figures.get("100.application.rate")).isPositive();
    assertThat(r.figures.get("100.allocation.ms")).isPositive();
    assertThat(r.figures.get("100.submission.ms")).isGreaterThan(r.figures.get("100.allocation.ms"));
    assertThat(r.figures.get("errors")).isZero();
    assertThat(String.join("\n", r.lines))
        .contains("JFR profile of the journal floor's JVM at 100 in flight")
        .contains("| hottest top frames |")
        .doesNotContain("JFR summary unavailable");
  }
}
