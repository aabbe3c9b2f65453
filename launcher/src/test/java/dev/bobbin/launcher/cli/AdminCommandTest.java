package dev.bobbin.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AdminCommandTest {
  private final FakeRm rm = TestRms.start();

  @AfterEach
  void stop() {
    rm.close();
  }

  @Test
  void refreshQueuesPrintsWhatTheRmChangedAndAsksAsTheUser() {
    rm.on("PUT", AppPaths.REFRESH_QUEUES, 200, "{\"result\":\"Queues refreshed: root.b added\"}");

    Cli.Result result = Cli.run("admin", "refresh-queues", "--rm", rm.url(), "--user", "yarn");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).isEqualTo("Queues refreshed: root.b added\n");
    assertThat(rm.requests("PUT", AppPaths.REFRESH_QUEUES)).singleElement()
        .satisfies(put -> assertThat(put.query()).containsEntry("user.name", "yarn"));
  }

  @Test
  void anInvalidAllocationFileIsTheRmsRefusal() {
    rm.on("PUT", AppPaths.REFRESH_QUEUES, 400, """
        {"RemoteException":{"exception":"BadRequestException",
         "message":"java.lang.Exception: queue root.b: weight must be positive",
         "javaClassName":"org.apache.hadoop.yarn.webapp.BadRequestException"}}""");

    Cli.Result result = Cli.run("admin", "refresh-queues", "--rm", rm.url());

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err()).isEqualTo("BadRequestException: queue root.b: weight must be positive\n");
  }
}
