package dev.bobbin.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Bad command lines never reach the RM: the port given is closed, so a request would exit 2. */
class UsageTest {
  private static final String NO_RM = TestRms.closedPortUrl();

  @Test
  void unknownOptionIsNamedWithTheCommandsUsage() {
    Cli.Result result = Cli.run("apps", "--rm", NO_RM, "--colour", "blue");

    assertThat(result.exitCode()).isEqualTo(64);
    assertThat(result.err()).startsWith("Unknown option: '--colour'\n").contains("Usage: bobbin apps");
  }

  @Test
  void missingApplicationId() {
    Cli.Result result = Cli.run("status", "--rm", NO_RM);

    assertThat(result.exitCode()).isEqualTo(64);
    assertThat(result.err()).startsWith("Missing required parameter: 'APP_ID'\n").contains("Usage: bobbin status")
        .contains("APP_ID");
  }

  @Test
  void malformedApplicationId() {
    Cli.Result result = Cli.run("kill", "app-7", "--rm", NO_RM);

    assertThat(result.exitCode()).isEqualTo(64);
    assertThat(result.err()).startsWith("Invalid application id 'app-7'");
  }

  @Test
  void nonNumericContainers() {
    Cli.Result result = Cli.run("submit", "--rm", NO_RM, "--shell", "true", "--containers", "many");

    assertThat(result.exitCode()).isEqualTo(64);
    assertThat(result.err()).startsWith("Invalid value for option '--containers': 'many' is not an int\n")
        .contains("Usage: bobbin submit");
  }

  @Test
  void zeroContainers() {
    assertThat(Cli.run("submit", "--rm", NO_RM, "--shell", "true", "--containers=0").err())
        .startsWith("--containers must be at least 1, got 0\n");
  }

  @Test
  void missingShell() {
    Cli.Result result = Cli.run("submit", "--rm", NO_RM);

    assertThat(result.exitCode()).isEqualTo(64);
    assertThat(result.err()).startsWith("Missing required option: '--shell=CMD'\n");
  }

  @Test
  void optionWithoutItsValue() {
    Cli.Result result = Cli.run("kill", "application_1700000000000_0001", "--rm", NO_RM, "--diagnostics");

    assertThat(result.exitCode()).isEqualTo(64);
    assertThat(result.err()).startsWith("Missing required parameter for option '--diagnostics' (TEXT)\n");
  }

  @Test
  void unknownStateIsNamedWithTheStatesThereAre() {
    Cli.Result result = Cli.run("apps", "--rm", NO_RM, "--states", "running,sleeping");

    assertThat(result.exitCode()).isEqualTo(64);
    assertThat(result.err()).startsWith("Invalid value for option '--states': unknown state 'sleeping', expected NEW,")
        .contains("Usage: bobbin apps");
  }

  @Test
  void invalidRmUrl() {
    Cli.Result result = Cli.run("nodes", "--rm", "127.0.0.1:8088");

    assertThat(result.exitCode()).isEqualTo(64);
    assertThat(result.err()).startsWith("Invalid --rm URL '127.0.0.1:8088'");
  }

  @Test
  void unknownCommandListsTheCommands() {
    Cli.Result result = Cli.run("frobnicate");

    assertThat(result.exitCode()).isEqualTo(64);
    assertThat(result.err()).startsWith("Unknown command 'frobnicate'\n").contains("submit", "status", "kill", "apps", "nodes");
  }

  @Test
  void helpPrintsTheUsageAndSucceeds() {
    Cli.Result result = Cli.run("submit", "--help");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).startsWith("Usage: bobbin submit").contains("--am-memory=MB")
        .contains("--rm=URL", "BOBBIN_RM");
  }
}
