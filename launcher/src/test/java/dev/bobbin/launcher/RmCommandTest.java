package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** What {@code bobbin rm}'s scheduler options set. */
class RmCommandTest {
  private static Map<String, Object> overrides(String... argv) {
    RmCommand rm = new RmCommand(new PrintStream(OutputStream.nullOutputStream()));
    new CommandLine(rm).parseArgs(argv);
    return rm.overrides();
  }

  @Test
  void aCapacityFileSelectsTheCapacityPolicyAndIsReadFromItsAbsolutePath() {
    Map<String, Object> over = overrides("--capacity-file", "capacity-scheduler.xml");
    assertThat(over).containsEntry("bobbin.scheduler.policy", "capacity")
        .containsEntry("bobbin.scheduler.capacity.capacity-file", Path.of("capacity-scheduler.xml").toAbsolutePath().toString());
    assertThat(overrides("--scheduler", "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler",
        "--capacity-file", "c.xml")).containsEntry("bobbin.scheduler.policy", "capacity");
    assertThat(overrides("--allocation-file", "f.xml")).containsEntry("bobbin.scheduler.policy", "fair");
  }

  @Test
  void aFileForAPolicyThatDoesNotRunIsAUsageError() {
    MainTest.Result fair = MainTest.run("rm", "--scheduler", "fair", "--capacity-file", "c.xml");
    assertThat(fair.exitCode()).isEqualTo(64);
    assertThat(fair.err()).startsWith("--capacity-file is read by the capacity policy only, and --scheduler says fair");

    MainTest.Result both = MainTest.run("rm", "--allocation-file", "f.xml", "--capacity-file", "c.xml");
    assertThat(both.exitCode()).isEqualTo(64);
    assertThat(both.err()).startsWith("--capacity-file is read by the capacity policy only, and another file selects"
        + " the fair policy; give --scheduler capacity or leave --capacity-file out");
  }
}
