package dev.bobbin.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bobbin logs} against a fake RM that also plays the NodeManager: aggregated logs where
 * they are, else the NodeManagers' own, each file framed as {@code yarn logs} frames it.
 */
class LogsCommandTest {
  private static final String APP_ID = "application_1700000000000_0003";
  private static final String AM = "container_1700000000000_0003_01_000001";
  private static final String WORKER = "container_1700000000000_0003_01_000002";
  private static final String NOT_FOUND = """
      {"RemoteException":{"exception":"NotFoundException",
       "message":"java.lang.Exception: app with id: application_1700000000000_0003 not found",
       "javaClassName":"org.apache.hadoop.yarn.webapp.NotFoundException"}}""";

  private final FakeRm rm = TestRms.start();
  @TempDir Path remote;

  @AfterEach
  void stop() {
    rm.close();
  }

  private static String app(String state) {
    return "{\"app\":{\"id\":\"" + APP_ID + "\",\"user\":\"alice\",\"state\":\"" + state + "\"}}";
  }

  private Path aggregated(String user, String container, String file, String text) throws Exception {
    Path dir = Files.createDirectories(remote.resolve(user).resolve("logs").resolve(APP_ID).resolve("node1_8042")
        .resolve(container));
    return Files.writeString(dir.resolve(file), text);
  }

  @Test
  void aggregatedLogsArePrintedFileByFileWithYarnsHeaders() throws Exception {
    rm.on("GET", AppPaths.app(APP_ID), 200, app("FINISHED"));
    aggregated("alice", AM, "stdout", "am says hi\n");
    aggregated("alice", WORKER, "stdout", "worker out\n");
    aggregated("alice", WORKER, "stderr", "worker err\n");

    Cli.Result all = Cli.run("logs", APP_ID, "--rm", rm.url(), "--remote-app-log-dir", remote.toString());

    assertThat(all.exitCode()).as(all.err()).isZero();
    String header = "Container: " + WORKER + " on node1_8042";
    assertThat(all.out()).contains(header + "\nLogAggregationType: AGGREGATED\n" + "=".repeat(header.length())
        + "\nLogType:stderr\nLogLastModifiedTime:");
    assertThat(all.out()).contains("LogLength:11\nLog Contents:\nworker err\n\nEnd of LogType:stderr\n"
        + "*".repeat("End of LogType:stderr".length() + 50) + "\n\n");
    assertThat(all.out()).contains("am says hi", "worker out");
    assertThat(all.out().indexOf("am says hi")).isLessThan(all.out().indexOf("worker err"));

    Cli.Result one = Cli.run("logs", APP_ID, "--rm", rm.url(), "--remote-app-log-dir", remote.toString(),
        "--container", WORKER, "--log-file", "stderr");
    assertThat(one.exitCode()).isZero();
    assertThat(one.out()).contains("worker err").doesNotContain("worker out").doesNotContain("am says hi");
  }

  @Test
  void anApplicationTheRmForgotIsFoundAmongAnyUsersAggregatedLogs() throws Exception {
    rm.on("GET", AppPaths.app(APP_ID), 404, NOT_FOUND);
    aggregated("bob", AM, "stdout", "long ago\n");

    Cli.Result result = Cli.run("logs", APP_ID, "--rm", rm.url(), "--remote-app-log-dir", remote.toString());

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.out()).contains("Container: " + AM + " on node1_8042", "long ago");
  }

  @Test
  void anUnknownApplicationIsTheRmsErrorAndSaysWhereAggregatedLogsWereLookedFor() {
    rm.on("GET", AppPaths.app(APP_ID), 404, NOT_FOUND);

    Cli.Result result = Cli.run("logs", APP_ID, "--rm", rm.url(), "--remote-app-log-dir", remote.toString());

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err()).isEqualTo("NotFoundException: app with id: " + APP_ID + " not found; no aggregated logs"
        + " of it under " + remote + "/*/logs/" + APP_ID + "\n");
    assertThat(result.out()).isEmpty();
  }

  @Test
  void withoutAggregatedLogsTheNodeManagersAreAskedForTheContainersTheRmAndTheNodesKnow() {
    String node = rm.url().substring("http://".length());
    rm.on("GET", AppPaths.app(APP_ID), 200, app("RUNNING"))
        .on("GET", AppPaths.attempts(APP_ID), 200, """
            {"appAttempts":{"appAttempt":{"id":1,"appAttemptId":"appattempt_1700000000000_0003_000001",
             "containerId":"%s","nodeId":"%s","nodeHttpAddress":"%s","logsLink":"http://%s/node/containerlogs/%s/alice",
             "appAttemptState":"RUNNING"}}}""".formatted(AM, node, node, node, AM))
        .on("GET", AppPaths.attempts(APP_ID) + "/appattempt_1700000000000_0003_000001/containers", 200, """
            {"containers":{"container":{"containerId":"%s","nodeId":"%s","nodeHttpAddress":"http://%s"}}}"""
            .formatted(AM, node, node))
        .on("GET", AppPaths.NODES, 200, """
            {"nodes":{"node":{"id":"%s","state":"RUNNING","nodeHTTPAddress":"%s"}}}""".formatted(node, node))
        // The worker ended: the RM no longer lists it, the node still knows it.
        .on("GET", "/ws/v1/node/containers", 200, """
            {"containers":{"container":[{"id":"%s","state":"RUNNING"},{"id":"%s","state":"EXITED_WITH_SUCCESS"},
             {"id":"container_1700000000000_0009_01_000002","state":"RUNNING"}]}}""".formatted(AM, WORKER))
        .on("GET", "/ws/v1/node/containers/" + AM + "/logs", 200, listing("stdout", 9))
        .on("GET", "/ws/v1/node/containers/" + AM + "/logs/stdout", 200, "am lives\n")
        .on("GET", "/ws/v1/node/containers/" + WORKER + "/logs", 200, listing("stdout", 10))
        .on("GET", "/ws/v1/node/containers/" + WORKER + "/logs/stdout", 200, "work done\n");

    Cli.Result result = Cli.run("logs", APP_ID, "--rm", rm.url(), "--remote-app-log-dir", remote.toString());

    assertThat(result.exitCode()).as(result.err()).isZero();
    String header = "Container: " + WORKER + " on " + node;
    assertThat(result.out()).contains(header + "\nLogAggregationType: LOCAL\n" + "=".repeat(header.length())
        + "\nLogType:stdout\nLogLastModifiedTime:2024-01-01T00:00:00Z\nLogLength:10\nLog Contents:\nwork done\n\n"
        + "End of LogType:stdout\n");
    assertThat(result.out()).contains("Container: " + AM + " on " + node, "am lives");
    assertThat(rm.requests("GET", "/ws/v1/node/containers/container_1700000000000_0009_01_000002/logs")).isEmpty();
  }

  @Test
  void noLogsAnywhereSaysWhereItLooked() {
    rm.on("GET", AppPaths.app(APP_ID), 200, app("FINISHED"))
        .on("GET", AppPaths.attempts(APP_ID), 200, "{\"appAttempts\":null}")
        .on("GET", AppPaths.NODES, 200, "{\"nodes\":null}");

    Cli.Result result = Cli.run("logs", APP_ID, "--rm", rm.url(), "--remote-app-log-dir", remote.toString());

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err()).isEqualTo("No logs of application " + APP_ID + " found: none aggregated in "
        + remote.resolve("alice/logs").resolve(APP_ID) + ", and none on the NodeManagers\n");
  }

  @Test
  void badIdsAndFileNamesAreUsageErrors() {
    assertUsage(Cli.run("logs", "app_1", "--rm", rm.url()), "Invalid application id 'app_1'");
    assertUsage(Cli.run("logs", APP_ID, "--rm", rm.url(), "--container", "container_1700000000000_0004_01_000001"),
        "container_1700000000000_0004_01_000001 is not a container of " + APP_ID);
    assertUsage(Cli.run("logs", APP_ID, "--rm", rm.url(), "--log-file", "../secret"),
        "Invalid value for option '--log-file': '../secret'");
    assertThat(rm.requests()).isEmpty();
  }

  private static void assertUsage(Cli.Result result, String message) {
    assertThat(result.exitCode()).isEqualTo(64);
    assertThat(result.err()).contains(message).contains("Usage: bobbin logs");
  }

  private static String listing(String file, long size) {
    return """
        {"containerLogsInfo":{"containerLogInfo":{"fileName":"%s","fileSize":"%d",
         "lastModifiedTime":"2024-01-01T00:00:00Z"},"logAggregationType":"LOCAL"}}""".formatted(file, size);
  }
}
