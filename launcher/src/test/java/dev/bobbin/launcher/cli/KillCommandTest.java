package dev.bobbin.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.protocol.WireJson;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class KillCommandTest {
  private static final String APP_ID = "application_1700000000000_0011";

  private final FakeRm rm = TestRms.start();

  @AfterEach
  void stop() {
    rm.close();
  }

  @Test
  void repeatsTheKillWhileTheRmAnswers202() throws Exception {
    rm.on("GET", AppPaths.app(APP_ID), 200, app("RUNNING"))
        .on("PUT", AppPaths.state(APP_ID),
            new FakeRm.Reply(202, "{\"state\":\"RUNNING\"}"),
            new FakeRm.Reply(202, "{\"state\":\"KILLING\"}"),
            new FakeRm.Reply(200, "{\"state\":\"KILLED\"}"));

    Cli.Result result = Cli.run("kill", APP_ID, "--rm", rm.url(), "--diagnostics", "no longer needed");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).isEqualTo("Killed application " + APP_ID + "\n");
    assertThat(rm.requests("PUT", AppPaths.state(APP_ID))).hasSize(3).allSatisfy(put -> {
      assertThat(put.query()).containsEntry("user.name", Cli.USER);
      JsonNode body = WireJson.mapper().readTree(put.body());
      assertThat(body.path("state").asText()).isEqualTo("KILLED");
      assertThat(body.path("diagnostics").asText()).isEqualTo("no longer needed");
    });
  }

  @Test
  void leavesAFinishedApplicationAlone() {
    rm.on("GET", AppPaths.app(APP_ID), 200, app("FINISHED"));

    Cli.Result result = Cli.run("kill", APP_ID, "--rm", rm.url());

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).isEqualTo("Application " + APP_ID + " already FINISHED\n");
    assertThat(rm.requests("PUT", AppPaths.state(APP_ID))).isEmpty();
  }

  @Test
  void reportsAnApplicationThatEndedWhileBeingKilled() {
    rm.on("GET", AppPaths.app(APP_ID), 200, app("RUNNING"))
        .on("PUT", AppPaths.state(APP_ID), 200, "{\"state\":\"FAILED\"}");

    Cli.Result result = Cli.run("kill", APP_ID, "--rm", rm.url());

    assertThat(result.out()).isEqualTo("Application " + APP_ID + " already FAILED\n");
  }

  @Test
  void refusedKillIsAnRmError() {
    rm.on("GET", AppPaths.app(APP_ID), 200, app("RUNNING"))
        .on("PUT", AppPaths.state(APP_ID), 403, "Unauthorized attempt to kill appid " + APP_ID + " by remote user bob");

    Cli.Result result = Cli.run("kill", APP_ID, "--rm", rm.url(), "--user", "bob");

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err()).isEqualTo(
        "The ResourceManager answered HTTP 403: Unauthorized attempt to kill appid " + APP_ID + " by remote user bob\n");
  }

  private static String app(String state) {
    return "{\"app\":{\"id\":\"" + APP_ID + "\",\"state\":\"" + state + "\"}}";
  }
}
