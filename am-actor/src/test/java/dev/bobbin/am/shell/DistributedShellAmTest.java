package dev.bobbin.am.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.am.TestingNm;
import dev.bobbin.am.TestingRm;
import dev.bobbin.protocol.ContainerEnv;
import dev.bobbin.protocol.FinalApplicationStatus;
import dev.bobbin.protocol.Ids;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class DistributedShellAmTest {

  @Test
  void runsAgainstTheRmNamedInTheContainerEnvironmentAndExitsZero() throws Exception {
    AtomicReference<TestingRm> rmRef = new AtomicReference<>();
    try (TestingNm nm = new TestingNm(TestingRm.SECRET, (id, launch) -> rmRef.get().complete(id, 0, ""));
        TestingRm rm = TestingRm.start(1, Map.of("127.0.0.1:45454", nm.httpAddress()))) {
      rmRef.set(rm);
      Map<String, String> env = Map.of(
          ContainerEnv.RM_ADDRESSES, TestingRm.deadAddress() + "," + rm.address(0),
          ContainerEnv.AM_TOKEN, TestingRm.AM_TOKEN,
          ContainerEnv.CONTAINER_ID, Ids.containerId(TestingRm.ATTEMPT_ID, 0, 1),
          ContainerEnv.NM_HOST, "127.0.0.1");

      int exit = DistributedShellAm.run(
          new String[] {"--shell", "true", "--containers", "2", "--memory", "128", "--vcores", "1"}, env);

      assertThat(exit).isZero();
      assertThat(rm.lastFinalStatus()).isEqualTo(FinalApplicationStatus.SUCCEEDED);
      assertThat(nm.started).hasSize(2);
    }
  }

  @Test
  void aBadCommandLineExitsTwoWithUsage() {
    String err = stderrOf(() -> assertThat(DistributedShellAm.run(new String[] {"--shell", "true"}, Map.of())).isEqualTo(2));
    assertThat(err).contains("Missing required options: '--containers=N'").contains("Usage: DistributedShellAm")
        .contains("--shell=CMD");
  }

  @Test
  void aMissingEnvironmentExitsThree() {
    String[] args = {"--shell", "true", "--containers", "1", "--memory", "128", "--vcores", "1"};
    String err = stderrOf(() -> assertThat(DistributedShellAm.run(args, Map.of())).isEqualTo(3));
    assertThat(err).contains(ContainerEnv.RM_ADDRESSES);
  }

  @Test
  void parsingNamesTheBadOption() {
    assertThatThrownBy(() -> ShellAmArgs.parse("--shell", "x", "--containers", "two", "--memory", "1", "--vcores", "1"))
        .hasMessage("Invalid value for option '--containers': 'two' is not an int");
    assertThatThrownBy(() -> ShellAmArgs.parse("--shell", "x", "--bogus", "1")).hasMessageStartingWith("Unknown options: '--bogus'");
    assertThatThrownBy(() -> ShellAmArgs.parse("--shell")).hasMessage("Missing required parameter for option '--shell' (CMD)");
    assertThatThrownBy(() -> ShellAmArgs.parse("--shell", "x", "--containers", "1", "--memory", "0", "--vcores", "1"))
        .hasMessageContaining("--memory");
    assertThat(ShellAmArgs.parse("--shell", "x", "--containers", "1", "--memory", "64", "--vcores", "1", "--priority", "3")
            .priority()).isEqualTo(3);
  }

  private static String stderrOf(Runnable r) {
    PrintStream old = System.err;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    System.setErr(new PrintStream(buf, true, StandardCharsets.UTF_8));
    try {
      r.run();
    } finally {
      System.setErr(old);
    }
    return buf.toString(StandardCharsets.UTF_8);
  }
}
