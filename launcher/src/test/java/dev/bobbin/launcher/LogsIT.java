package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import dev.bobbin.node.server.NodeManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Container logs end to end on real processes: a distributed-shell application's containers write
 * to stdout and stderr; while it runs, {@code bobbin logs} reads them from the NodeManager; once it
 * ended, the NodeManager aggregates them, its own directories for the application go, and {@code
 * bobbin logs} prints them from the aggregated copy.
 */
class LogsIT {
  private static final String USER = System.getProperty("user.name");
  private static final Pattern SUBMITTED = Pattern.compile("Submitted application (application_\\d+_\\d+)");

  private RmMember rm;
  private NodeManager nm;

  @AfterEach
  void stop() {
    if (nm != null) nm.close();
    if (rm != null) rm.close();
  }

  private static MainTest.Result bobbin(String... argv) {
    return MainTest.run(argv);
  }

  @Test
  void logsAreReadFromTheNodeManagerWhileTheApplicationRunsAndFromTheAggregatedCopyAfterwards(@TempDir Path dir)
      throws Exception {
    Path remote = dir.resolve("aggregated");
    Path work = dir.resolve("nm");
    rm = RmMember.start(ConfigFactory.parseMap(Map.of(
        "bobbin.data-dir", dir.resolve("rm").toString(),
        "bobbin.rm.http-port", RestApiIT.freePort(),
        "pekko.remote.artery.canonical.port", RestApiIT.freePort())));
    nm = ItNodes.start(rm, work, ConfigFactory.parseMap(Map.of(
        "bobbin.nm.log-retain", "1s",
        "bobbin.nm.log-aggregation.enabled", true,
        "bobbin.nm.log-aggregation.remote-app-log-dir", remote.toString())));
    String base = rm.url() + "/ws/v1/cluster";
    Http.await(Duration.ofSeconds(30), "the node", () ->
        Http.get(base + "/nodes?states=RUNNING").json().path("nodes").path("node").size() == 1);

    // A running application: its worker's output comes from the NodeManager.
    MainTest.Result running = bobbin("submit", "--rm", rm.url(), "--shell", "echo running-$CONTAINER_ID; sleep 600",
        "--containers", "1", "--memory", "256", "--am-memory", "512");
    assertThat(running.exitCode()).as(running.err()).isZero();
    String runningApp = applicationId(running.out());
    List<MainTest.Result> reads = new ArrayList<>();
    Http.await(Duration.ofSeconds(60), "the worker's output through bobbin logs", () -> {
      MainTest.Result r = bobbin("logs", runningApp, "--rm", rm.url(), "--log-file", "stdout");
      reads.add(r);
      return r.exitCode() == 0 && r.out().contains("running-container_");
    });
    MainTest.Result live = reads.get(reads.size() - 1);
    assertThat(live.out()).contains("LogAggregationType: LOCAL", "Container: " + containerOf(live.out(), "running-")
        + " on " + nm.nodeId(), "LogType:stdout", "End of LogType:stdout").doesNotContain("LogType:stderr");
    // The AM's log link in the application's report leads to its log page on the NodeManager, and on to each file.
    String amLogs = Http.get(base + "/apps/" + runningApp).json().path("app").path("amContainerLogs").asText();
    Http.Reply page = Http.get(amLogs);
    assertThat(page.status()).as(amLogs).isEqualTo(200);
    assertThat(page.body()).contains(">stdout</a>", ">stderr</a>");
    assertThat(Http.get(amLogs + "/stderr").status()).isEqualTo(200);
    assertThat(bobbin("kill", runningApp, "--rm", rm.url()).exitCode()).isZero();

    // An application that ends: its logs are aggregated and the node's own copy goes.
    MainTest.Result finished = bobbin("submit", "--rm", rm.url(), "--shell",
        "echo out-$CONTAINER_ID; echo err-$CONTAINER_ID >&2", "--containers", "2", "--memory", "256",
        "--am-memory", "512", "--wait");
    assertThat(finished.exitCode()).as(finished.out() + finished.err()).isZero();
    String app = applicationId(finished.out());
    Path aggregated = remote.resolve(USER).resolve("logs").resolve(app).resolve(nm.nodeId().replace(':', '_'));
    Path nodeRoot = work.resolve(nm.nodeId().replace(':', '_'));
    Http.await(Duration.ofSeconds(30), "the logs aggregated and the node's directories of the application gone", () ->
        Files.isDirectory(aggregated) && !Files.exists(nodeRoot.resolve("logs").resolve(app))
            && !Files.exists(nodeRoot.resolve("usercache").resolve(USER).resolve("appcache").resolve(app)));
    try (Stream<Path> containers = Files.list(aggregated)) {
      assertThat(containers.count()).as("the AM's and both workers'").isEqualTo(3);
    }

    MainTest.Result logs = bobbin("logs", app, "--rm", rm.url(), "--remote-app-log-dir", remote.toString());
    assertThat(logs.exitCode()).as(logs.err()).isZero();
    List<String> workers = new ArrayList<>();
    Matcher m = Pattern.compile("(?m)^out-(container_\\S+)$").matcher(logs.out());
    while (m.find()) workers.add(m.group(1));
    assertThat(workers).hasSize(2);
    for (String worker : workers) {
      String header = "Container: " + worker + " on " + aggregated.getFileName();
      assertThat(logs.out()).contains(header + "\nLogAggregationType: AGGREGATED\n" + "=".repeat(header.length())
          + "\nLogType:stderr\n");
      assertThat(logs.out()).contains("Log Contents:\nerr-" + worker + "\n\nEnd of LogType:stderr\n");
      assertThat(logs.out()).contains("Log Contents:\nout-" + worker + "\n\nEnd of LogType:stdout\n");
    }
    MainTest.Result one = bobbin("logs", app, "--rm", rm.url(), "--remote-app-log-dir", remote.toString(),
        "--container", workers.get(0), "--log-file", "stderr");
    assertThat(one.exitCode()).as(one.err()).isZero();
    assertThat(one.out()).contains("err-" + workers.get(0)).doesNotContain("out-").doesNotContain(workers.get(1));

    // An application the RM never had: the RM's answer, and where aggregated logs were looked for.
    String unknown = app.substring(0, app.lastIndexOf('_')) + "_9999";
    MainTest.Result none = bobbin("logs", unknown, "--rm", rm.url(), "--remote-app-log-dir", remote.toString());
    assertThat(none.exitCode()).isEqualTo(1);
    assertThat(none.err()).contains(unknown).contains("no aggregated logs of it under " + remote + "/*/logs/" + unknown);
  }

  private static String applicationId(String submitted) {
    Matcher m = SUBMITTED.matcher(submitted);
    assertThat(m.find()).as(submitted).isTrue();
    return m.group(1);
  }

  private static String containerOf(String out, String prefix) {
    Matcher m = Pattern.compile(Pattern.quote(prefix) + "(container_\\S+)").matcher(out);
    assertThat(m.find()).as(out).isTrue();
    return m.group(1);
  }
}
