package dev.bobbin.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.protocol.WireJson;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AppCommandTest {
  private static final String APP_ID = "application_1700000000000_0011";

  private final FakeRm rm = TestRms.start();

  @AfterEach
  void stop() {
    rm.close();
  }

  @Test
  void updatesThePriorityAndPrintsIt() throws Exception {
    rm.on("PUT", AppPaths.priority(APP_ID), 200, "{\"priority\":7}");

    Cli.Result result = Cli.run("app", "--update-priority", "7", "--appId", APP_ID, "--rm", rm.url());

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).isEqualTo("Application " + APP_ID + " now runs at priority 7\n");
    assertThat(rm.requests("PUT", AppPaths.priority(APP_ID))).singleElement().satisfies(put -> {
      assertThat(put.query()).containsEntry("user.name", Cli.USER);
      JsonNode body = WireJson.mapper().readTree(put.body());
      assertThat(body.path("priority").asInt()).isEqualTo(7);
    });
  }

  @Test
  void saysWhenTheRmCappedThePriority() {
    rm.on("PUT", AppPaths.priority(APP_ID), 200, "{\"priority\":3}");

    Cli.Result result = Cli.run("app", "--update-priority", "9", "--appId", APP_ID, "--rm", rm.url());

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).isEqualTo("Application " + APP_ID + " runs at priority 3 (asked for 9)\n");
  }

  @Test
  void badInputIsAUsageErrorAndAsksNothing() {
    Cli.Result negative = Cli.run("app", "--update-priority", "-1", "--appId", APP_ID, "--rm", rm.url());
    assertThat(negative.exitCode()).isEqualTo(64);
    assertThat(negative.err()).contains("--update-priority must be at least 0, got -1");

    Cli.Result notANumber = Cli.run("app", "--update-priority", "high", "--appId", APP_ID, "--rm", rm.url());
    assertThat(notANumber.exitCode()).isEqualTo(64);
    assertThat(notANumber.err()).contains("--update-priority").contains("high");

    Cli.Result badId = Cli.run("app", "--update-priority", "1", "--appId", "app_1", "--rm", rm.url());
    assertThat(badId.exitCode()).isEqualTo(64);
    assertThat(badId.err()).contains("Invalid application id 'app_1'");

    Cli.Result noId = Cli.run("app", "--update-priority", "1", "--rm", rm.url());
    assertThat(noId.exitCode()).isEqualTo(64);
    assertThat(noId.err()).contains("--appId");

    assertThat(rm.requests("PUT", AppPaths.priority(APP_ID))).isEmpty();
  }

  @Test
  void aRefusalIsAnRmError() {
    rm.on("PUT", AppPaths.priority(APP_ID), 403,
        "{\"RemoteException\":{\"exception\":\"AccessControlException\",\"message\":\"User bob cannot perform "
            + "operation MODIFY_APP on " + APP_ID + "\",\"javaClassName\":\"org.apache.hadoop.security.AccessControlException\"}}");

    Cli.Result result = Cli.run("app", "--update-priority", "1", "--appId", APP_ID, "--rm", rm.url(), "--user", "bob");

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err())
        .isEqualTo("AccessControlException: User bob cannot perform operation MODIFY_APP on " + APP_ID + "\n");
  }

  @Test
  void movesToAQueueAndPrintsWhereItRunsNow() throws Exception {
    rm.on("PUT", AppPaths.queue(APP_ID), 200, "{\"queue\":\"b\"}");

    Cli.Result result = Cli.run("app", "--move-to-queue", "b", APP_ID, "--rm", rm.url());

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.out()).isEqualTo("Application " + APP_ID + " now runs in queue b\n");
    assertThat(rm.requests("PUT", AppPaths.queue(APP_ID))).singleElement().satisfies(put -> {
      assertThat(put.query()).containsEntry("user.name", Cli.USER);
      assertThat(WireJson.mapper().readTree(put.body()).path("queue").asText()).isEqualTo("b");
    });
  }

  @Test
  void aMoveNeedsOneQueueOneApplicationAndNoOtherChange() {
    Cli.Result blank = Cli.run("app", "--move-to-queue", " ", APP_ID, "--rm", rm.url());
    assertThat(blank.exitCode()).isEqualTo(64);
    assertThat(blank.err()).contains("--move-to-queue needs a queue name");

    Cli.Result both = Cli.run("app", "--move-to-queue", "b", "--update-priority", "1", APP_ID, "--rm", rm.url());
    assertThat(both.exitCode()).isEqualTo(64);
    assertThat(both.err()).contains("--move-to-queue").contains("--update-priority");

    Cli.Result neither = Cli.run("app", APP_ID, "--rm", rm.url());
    assertThat(neither.exitCode()).isEqualTo(64);
    assertThat(neither.err()).contains("--move-to-queue").contains("--update-priority");

    Cli.Result twoApps = Cli.run("app", "--move-to-queue", "b", "--appId", APP_ID, "application_1700000000000_0012",
        "--rm", rm.url());
    assertThat(twoApps.exitCode()).isEqualTo(64);
    assertThat(twoApps.err()).contains("Two applications given");

    Cli.Result badId = Cli.run("app", "--move-to-queue", "b", "app_1", "--rm", rm.url());
    assertThat(badId.exitCode()).isEqualTo(64);
    assertThat(badId.err()).contains("Invalid application id 'app_1'");

    assertThat(rm.requests("PUT", AppPaths.queue(APP_ID))).isEmpty();
  }

  @Test
  void aRefusedMoveIsAnRmError() {
    rm.on("PUT", AppPaths.queue(APP_ID), 400,
        "{\"RemoteException\":{\"exception\":\"BadRequestException\",\"message\":\"The specified Queue: root "
            + "is not a Leaf Queue.\",\"javaClassName\":\"org.apache.hadoop.yarn.webapp.BadRequestException\"}}");

    Cli.Result result = Cli.run("app", "--move-to-queue", "root", "--appId", APP_ID, "--rm", rm.url());

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err()).isEqualTo("BadRequestException: The specified Queue: root is not a Leaf Queue.\n");
  }
}
