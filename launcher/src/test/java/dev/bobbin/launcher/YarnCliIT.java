package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.node.server.NodeManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command spelt as yarn spells it, against one RM member (Fair queues a and b) and one
 * NodeManager running one distributed-shell application: each read as a table and as the RM's
 * JSON, each change seen in the RM's REST API afterwards.
 */
class YarnCliIT {
  private static final Pattern SUBMITTED = Pattern.compile("Submitted application (application_\\d+_\\d+)");
  private static final Pattern ATTEMPT = Pattern.compile("appattempt_\\d+_\\d+_\\d+");
  private static final Pattern CONTAINER = Pattern.compile("container_(e\\d+_)?\\d+_\\d+_\\d+_\\d+");
  private static final ObjectMapper JSON = new ObjectMapper();

  private RmMember rm;
  private NodeManager nm;

  @AfterEach
  void stop() {
    if (nm != null) nm.close();
    if (rm != null) rm.close();
  }

  @Test
  void everyVerbWorksAgainstARunningCluster(@TempDir Path dir) throws Exception {
    Path allocations = dir.resolve("fair-scheduler.xml");
    Files.writeString(allocations, """
        <?xml version="1.0"?>
        <allocations><queue name="a"/><queue name="b"/></allocations>
        """);
    rm = RmMember.start(ConfigFactory.parseMap(Map.of(
        "bobbin.data-dir", dir.resolve("rm").toString(),
        "bobbin.rm.http-port", RestApiIT.freePort(),
        "pekko.remote.artery.canonical.port", RestApiIT.freePort(),
        "bobbin.scheduler.policy", "fair",
        "bobbin.scheduler.fair.allocation-file", allocations.toString())));
    nm = ItNodes.start(rm, dir.resolve("nm"), ConfigFactory.empty());
    String base = rm.url() + "/ws/v1/cluster";
    Http.await(Duration.ofSeconds(30), "the node", () ->
        Http.get(base + "/nodes?states=RUNNING").json().path("nodes").path("node").size() == 1);

    MainTest.Result submitted = bobbin("submit", "--shell", "echo hello-$CONTAINER_ID; sleep 600", "--containers", "1",
        "--memory", "256", "--am-memory", "512", "--queue", "a");
    assertThat(submitted.exitCode()).as(submitted.err()).isZero();
    Matcher m = SUBMITTED.matcher(submitted.out());
    assertThat(m.find()).as(submitted.out()).isTrue();
    String app = m.group(1);
    Http.await(Duration.ofSeconds(60), "the worker running", () ->
        Http.get(base + "/apps/" + app + "/appattempts/" + attemptOf(app) + "/containers").json()
            .path("containers").path("container").size() == 2);

    // application
    MainTest.Result list = ok("application", "-list");
    assertThat(list.out()).contains(app, "RUNNING");
    assertFitsEightyColumns(list);
    assertThat(ok("application", "-list", "-appStates", "FINISHED").out()).doesNotContain(app);
    assertThat(json(ok("application", "-list", "--output", "json")).path("apps").path("app").get(0).path("id").asText())
        .isEqualTo(app);
    assertThat(ok("application", "-status", app).out()).contains("Application-Id    : " + app, "root.a");
    assertThat(json(ok("application", "-status", app, "--output", "json")).path("app").path("id").asText())
        .isEqualTo(app);

    // applicationattempt
    MainTest.Result attempts = ok("applicationattempt", "-list", app);
    Matcher a = ATTEMPT.matcher(attempts.out());
    assertThat(a.find()).as(attempts.out()).isTrue();
    String attempt = a.group();
    assertFitsEightyColumns(attempts);
    assertThat(ok("applicationattempt", "-status", attempt).out()).contains("ApplicationAttempt-Id : " + attempt,
        "State : RUNNING");
    assertThat(json(ok("applicationattempt", "-list", app, "--output", "json")).path("appAttempts").isObject())
        .isTrue();

    // container
    MainTest.Result containers = ok("container", "-list", attempt);
    assertThat(containers.out()).startsWith("Total number of containers :2").contains(nm.nodeId());
    Matcher c = CONTAINER.matcher(containers.out());
    assertThat(c.find()).isTrue();
    String container = c.group();
    assertFitsEightyColumns(containers);
    assertThat(ok("container", "-status", container).out()).contains("Container-Id : " + container,
        "Host : " + nm.nodeId());
    assertThat(json(ok("container", "-status", container, "--output", "json")).path("containerId").asText())
        .isEqualTo(container);

    // node
    MainTest.Result nodes = ok("node", "-list");
    assertThat(nodes.out()).startsWith("Total Nodes:1").contains(nm.nodeId(), "RUNNING");
    assertFitsEightyColumns(nodes);
    assertThat(ok("node", "-list", "-all").out()).contains(nm.nodeId());
    assertThat(ok("node", "-list", "-states", "LOST").out()).startsWith("Total Nodes:0");
    assertThat(ok("node", "-status", nm.nodeId()).out()).contains("Node-Id : " + nm.nodeId(), "Node-State : RUNNING");
    assertThat(json(ok("node", "-status", nm.nodeId(), "--output", "json")).path("node").path("id").asText())
        .isEqualTo(nm.nodeId());

    // queue
    assertThat(ok("queue", "-status", "a").out()).contains("queueName : root.a");
    assertThat(json(ok("queue", "-status", "root.b", "--output", "json")).path("queueName").asText())
        .isEqualTo("root.b");
    MainTest.Result noQueue = bobbin("queue", "-status", "nosuch");
    assertThat(noQueue.exitCode()).isEqualTo(1);
    assertThat(noQueue.err()).contains("nosuch");

    // logs, as yarn logs takes its options
    Http.await(Duration.ofSeconds(60), "the worker's output", () ->
        bobbin("logs", "-applicationId", app, "-log_files", "stdout").out().contains("hello-container_"));

    // changes
    assertThat(ok("application", "-movetoqueue", app, "-queue", "b").out()).contains("to queue root.b");
    assertThat(Http.get(base + "/apps/" + app).json().path("app").path("queue").asText()).isEqualTo("root.b");
    // The RM caps the priority (at 0 unless configured); the CLI prints the one it runs at.
    String priority = ok("application", "-updatePriority", "3", "-appId", app).out();
    assertThat(priority).isEqualTo("Updated priority of application " + app + " to "
        + Http.get(base + "/apps/" + app + "/priority").json().path("priority").asInt() + "\n");
    assertThat(ok("application", "-updateLifetime", "3600", "-appId", app).out()).contains("expires at");
    assertThat(Http.get(base + "/apps/" + app + "/timeout").json().path("timeout").path("remainingTimeInSeconds")
        .asLong()).isBetween(3000L, 3600L);

    // rmadmin
    assertThat(ok("rmadmin", "-refreshQueues").exitCode()).isZero();
    assertThat(ok("rmadmin", "-refreshNodes").exitCode()).isZero();
    assertThat(ok("rmadmin", "-refreshUserToGroupsMappings").exitCode()).isZero();
    assertThat(ok("rmadmin", "-getGroups").out()).startsWith(System.getProperty("user.name") + " :");
    MainTest.Result acls = bobbin("rmadmin", "-refreshAdminAcls");
    assertThat(acls.exitCode()).isEqualTo(1);
    assertThat(acls.err()).contains("-refreshAdminAcls is not supported");

    // a usage error sends nothing: the application stays as it is
    assertThat(bobbin("application", "-kill", "not-an-id").exitCode()).isEqualTo(64);
    assertThat(ok("application", "-kill", app).out()).contains("Killed application " + app);
    assertThat(Http.get(base + "/apps/" + app).json().path("app").path("state").asText()).isEqualTo("KILLED");
  }

  private String attemptOf(String app) throws Exception {
    JsonNode attempts = Http.get(rm.url() + "/ws/v1/cluster/apps/" + app + "/appattempts").json()
        .path("appAttempts").path("appAttempt");
    return attempts.size() == 0 ? "appattempt_0_0_000001" : attempts.get(0).path("appAttemptId").asText();
  }

  private MainTest.Result bobbin(String... argv) {
    String[] withRm = new String[argv.length + 2];
    System.arraycopy(argv, 0, withRm, 0, argv.length);
    withRm[argv.length] = "--rm";
    withRm[argv.length + 1] = rm.url();
    return MainTest.run(withRm);
  }

  private MainTest.Result ok(String... argv) {
    MainTest.Result r = bobbin(argv);
    assertThat(r.exitCode()).as(String.join(" ", argv) + ": " + r.err()).isZero();
    return r;
  }

  /** The table under a listing's header line. */
  private static void assertFitsEightyColumns(MainTest.Result listing) {
    assertThat(listing.out().lines().skip(1)).isNotEmpty()
        .allSatisfy(line -> assertThat(line.length()).as(line).isLessThanOrEqualTo(80));
  }

  private static JsonNode json(MainTest.Result r) throws Exception {
    return JSON.readTree(r.out());
  }
}
