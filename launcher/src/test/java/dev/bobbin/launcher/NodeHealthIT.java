package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.node.container.ContainerExecutors;
import dev.bobbin.node.container.ContainerLayout;
import dev.bobbin.node.server.NodeManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Node health on real processes: a NodeManager whose health script starts reporting an error, or
 * whose log directory becomes read-only, is UNHEALTHY at the RM with its report, an application
 * submitted meanwhile runs on the other node, and the node is RUNNING again once healthy.
 */
class NodeHealthIT {
  /** Every check runs this often here; YARN's defaults are minutes. */
  private static final Map<String, Object> QUICK_CHECKS = Map.of(
      "bobbin.nm.health-checker.interval", "200ms",
      "bobbin.nm.health-checker.timeout", "5s",
      "bobbin.nm.disk-health-checker.interval", "200ms");

  @TempDir Path dir;
  RmMember rm;
  String base;
  final List<NodeManager> nms = new ArrayList<>();

  /** An RM of its own for each test: a node another test stopped would stay RUNNING until it expires. */
  @BeforeEach
  void startRm() throws Exception {
    rm = RmMember.start(ConfigFactory.parseMap(Map.of(
        "bobbin.data-dir", dir.resolve("rm").toString(),
        "bobbin.rm.http-port", RestApiIT.freePort(),
        "pekko.remote.artery.canonical.port", RestApiIT.freePort())));
    base = rm.url() + "/ws/v1/cluster";
  }

  @AfterEach
  void stop() {
    nms.forEach(NodeManager::close);
    nms.clear();
    if (rm != null) rm.close();
  }

  private NodeManager node(String name, Map<String, Object> settings) throws Exception {
    NodeManager nm = ItNodes.start(rm, dir.resolve(name), 4096, 4, settings);
    nms.add(nm);
    return nm;
  }

  private JsonNode nodeAtRm(String nodeId) throws Exception {
    for (JsonNode n : Http.get(base + "/nodes").json().path("nodes").path("node")) {
      if (n.path("id").asText().equals(nodeId)) return n;
    }
    return null;
  }

  private void awaitState(String nodeId, String state) throws Exception {
    Http.await(Duration.ofSeconds(20), nodeId + " " + state, () -> {
      JsonNode n = nodeAtRm(nodeId);
      return n != null && n.path("state").asText().equals(state);
    });
  }

  @Test
  void aFailingHealthScriptMakesTheNodeUnhealthyUntilItPassesAndItsApplicationsRunElsewhere() throws Exception {
    Path verdict = dir.resolve("verdict");
    Path script = dir.resolve("health.sh");
    Files.writeString(script, "#!/bin/sh\ncat " + verdict + " 2>/dev/null\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    Map<String, Object> withScript = new HashMap<>(QUICK_CHECKS);
    withScript.put("bobbin.nm.health-checker.script-path", script.toString());
    NodeManager sick = node("nm-script", withScript);
    NodeManager well = node("nm-well", QUICK_CHECKS);
    awaitState(sick.nodeId(), "RUNNING");
    awaitState(well.nodeId(), "RUNNING");

    long before = System.currentTimeMillis();
    Files.writeString(verdict, "ERROR fan 2 stopped\n");
    awaitState(sick.nodeId(), "UNHEALTHY");
    JsonNode unhealthy = nodeAtRm(sick.nodeId());
    assertThat(unhealthy.path("healthReport").asText()).isEqualTo("ERROR fan 2 stopped");
    assertThat(unhealthy.path("lastHealthUpdate").asLong()).isGreaterThanOrEqualTo(before);
    assertThat(unhealthy.path("nodeHTTPAddress").asText()).isEqualTo(sick.httpAddress());
    JsonNode listed = Http.get(base + "/nodes?states=UNHEALTHY").json().path("nodes").path("node");
    assertThat(listed).hasSize(1);
    assertThat(listed.get(0).path("id").asText()).isEqualTo(sick.nodeId());
    assertThat(Http.get(base + "/metrics").json().path("clusterMetrics").path("unhealthyNodes").asInt()).isEqualTo(1);

    String app = SleeperApps.submit(base, "alice", "default", 2);
    Http.await(Duration.ofSeconds(30), "the AM and both workers on the healthy node", () ->
        nodeAtRm(well.nodeId()).path("numContainers").asInt() == 3);
    assertThat(nodeAtRm(sick.nodeId()).path("numContainers").asInt()).isZero();
    assertThat(SleeperApps.allocatedMb(base, app)).isEqualTo(3072);

    Files.writeString(verdict, "fan 2 replaced\n");
    awaitState(sick.nodeId(), "RUNNING");
    assertThat(nodeAtRm(sick.nodeId()).path("healthReport").asText()).isEmpty();
    assertThat(Http.get(base + "/metrics").json().path("clusterMetrics").path("unhealthyNodes").asInt()).isZero();
    Http.put(base + "/apps/" + app + "/state?user.name=alice", "{\"state\":\"KILLED\"}");
  }

  /**
   * The log directory turns read-only: by its permissions for another user; for root, whom
   * permissions do not stop, by a read-only bind mount over it, as a disk remounted read-only after
   * errors would be.
   */
  @Test
  void aReadOnlyLogDirectoryMakesTheNodeUnhealthyUntilItIsWritableAgain() throws Exception {
    boolean root = ContainerExecutors.Self.current().uid() == 0;
    Path work = dir.resolve("nm-disks");
    NodeManager nm = node("nm-disks", QUICK_CHECKS);
    awaitState(nm.nodeId(), "RUNNING");
    Path logs = new ContainerLayout(work, nm.nodeId()).logDirs().get(0);
    assertThat(logs).isDirectory();

    if (root) {
      Assumptions.assumeTrue(run("mount", "--bind", logs.toString(), logs.toString()),
          "runs as root, for whom only a read-only mount makes a directory read-only, and cannot mount");
    } else {
      Files.setPosixFilePermissions(logs, PosixFilePermissions.fromString("r-xr-xr-x"));
    }
    try {
      if (root) assertThat(run("mount", "-o", "remount,ro,bind", logs.toString())).as("remount read-only").isTrue();
      awaitState(nm.nodeId(), "UNHEALTHY");
      assertThat(nodeAtRm(nm.nodeId()).path("healthReport").asText())
          .isEqualTo("1/1 log-dirs failed: " + logs + " (directory is not writable)");
    } finally {
      if (root) assertThat(run("umount", logs.toString())).as("unmount").isTrue();
      else Files.setPosixFilePermissions(logs, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    awaitState(nm.nodeId(), "RUNNING");
    assertThat(nodeAtRm(nm.nodeId()).path("healthReport").asText()).isEmpty();
  }

  private static boolean run(String... command) throws Exception {
    return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start().waitFor() == 0;
  }

}
