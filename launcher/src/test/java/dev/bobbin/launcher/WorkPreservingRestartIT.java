package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.am.shell.ShellAmSpec;
import dev.bobbin.config.NmSettings;
import dev.bobbin.config.NodeCredential;
import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.WireJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Work-preserving restart: a lone RM member dies by kill -9 while an application's containers run, and a
 * restart on the same data directory carries on: no container is killed, the AM re-registers, and
 * the application finishes with its first attempt.
 */
class WorkPreservingRestartIT {
  private Process rm;
  private final List<NodeManager> nms = new ArrayList<>();
  private int http;
  private int cluster;
  private String base;
  private Path log;

  @AfterEach
  void stop() {
    nms.forEach(NodeManager::close);
    if (rm != null) rm.destroyForcibly();
  }

  private Process startRm(Path data, int http, int cluster, Path log) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"), "dev.bobbin.launcher.Main",
            "rm", "--data-dir", data.toString(), "--http-port", String.valueOf(http),
            "--cluster-port", String.valueOf(cluster)))
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
  }

  @Test
  void runningContainersSurviveAKillNineOfTheOnlyMember(@TempDir Path dir) throws Exception {
    startRmAndNodes(dir, 2);

    String id = Http.post(base + "/apps/new-application", "").json().path("application-id").asText();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("application-id", id);
    body.put("resource", new Resource(1024, 1));
    body.put("am-container-spec", Map.of("commands", Map.of("command", ShellAmSpec.commands(
        System.getProperty("java.class.path"), "sleep 12; echo survived", 2, new Resource(1024, 1), 0))));
    assertThat(Http.post(base + "/apps", WireJson.mapper().writeValueAsString(body)).status()).isEqualTo(202);
    Http.await(Duration.ofSeconds(60), "the workers to run", () -> runningWorkers(id) == 2);

    killAndRestartRm(dir.resolve("data"));

    Http.await(Duration.ofSeconds(90), "the application to finish", () ->
        Http.get(base + "/apps/" + id).json().path("app").path("state").asText().equals("FINISHED"));
    JsonNode app = Http.get(base + "/apps/" + id).json().path("app");
    assertThat(app.path("finalStatus").asText()).as(app.toString()).isEqualTo("SUCCEEDED");
    assertThat(Http.get(base + "/apps/" + id + "/appattempts").json().path("appAttempts").path("appAttempt").size())
        .as("no new attempt").isEqualTo(1);
    Http.await(Duration.ofSeconds(30), "the AM process to exit", () ->
        containers(id).stream().noneMatch(c -> c.path("exitCode").asInt() == -1000));
    List<JsonNode> all = containers(id);
    assertThat(all).hasSize(3);
    for (JsonNode c : all) {
      // The AM container too: after its AM unregistered the RM waits for it to exit (as YARN's
      // FINISHING does) instead of cleaning the application up under it.
      assertThat(c.path("exitCode").asInt()).as("never killed: " + c).isZero();
    }
  }

  /**
   * YARN's RM cleans up what a registering node reports and the RM does not know. Here the member
   * restarts on an empty journal, so the application the node still reports was never known.
   */
  @Test
  void aNodeIsToldToCleanUpAnApplicationTheRestartedRmDoesNotKnow(@TempDir Path dir) throws Exception {
    startRmAndNodes(dir, 1);
    String id = Http.post(base + "/apps/new-application", "").json().path("application-id").asText();
    assertThat(Http.post(base + "/apps", """
        {"application-id":"%s","am-container-spec":{"commands":{"command":"sleep 600"}},
         "resource":{"memory":1024,"vCores":1}}""".formatted(id)).status()).isEqualTo(202);
    String nodeApp = "http://" + nms.get(0).httpAddress() + "/ws/v1/node/apps/" + id;
    Http.await(Duration.ofSeconds(60), "the AM container to run", () -> containers(id).stream()
        .anyMatch(c -> c.path("state").asText().equals("RUNNING")));
    assertThat(Http.get(nodeApp).json().path("app").path("state").asText()).isEqualTo("RUNNING");

    // Only the journal is lost: the member keeps the cluster's node credential, which the node presents.
    Files.createDirectories(dir.resolve("data-lost"));
    Files.copy(dir.resolve("data").resolve(NodeCredential.FILE_NAME),
        dir.resolve("data-lost").resolve(NodeCredential.FILE_NAME));
    killAndRestartRm(dir.resolve("data-lost"));

    Http.await(Duration.ofSeconds(60), "the node to clean the application up", () ->
        Http.get(nodeApp).json().path("app").path("state").asText().equals("FINISHED"));
    assertThat(containers(id)).allSatisfy(c -> assertThat(c.path("state").asText()).isNotEqualTo("RUNNING"));
    assertThat(Http.get(base + "/apps/" + id).status()).as("the new journal has no such application").isEqualTo(404);
  }

  /** One member on {@code dir/data}, and NodeManagers that register with it. */
  private void startRmAndNodes(Path dir, int nodes) throws Exception {
    http = RestApiIT.freePort();
    cluster = RestApiIT.freePort();
    base = "http://127.0.0.1:" + http + "/ws/v1/cluster";
    log = dir.resolve("rm.log");
    rm = startRm(dir.resolve("data"), http, cluster, log);
    Http.await(Duration.ofSeconds(60), "the RM to serve", () -> Http.get(base + "/info").status() == 200);
    for (int i = 1; i <= nodes; i++) {
      nms.add(NodeManager.start(NmSettings.from(ConfigFactory.parseMap(Map.of(
          "bobbin.nm.rm-addresses", List.of("http://127.0.0.1:" + http),
          "bobbin.nm.http-port", RestApiIT.freePort(),
          "bobbin.nm.memory-mb", 4096,
          "bobbin.nm.vcores", 4,
          "bobbin.nm.node-credential-file", dir.resolve("data").resolve(NodeCredential.FILE_NAME).toString(),
          "bobbin.nm.work-dir", dir.resolve("nm-" + i).toString())).withFallback(ConfigFactory.load()))));
    }
    Http.await(Duration.ofSeconds(30), nodes + " nodes", () ->
        Http.get(base + "/nodes?states=RUNNING").json().path("nodes").path("node").size() == nodes);
  }

  private void killAndRestartRm(Path data) throws Exception {
    rm.destroyForcibly().waitFor();
    rm = startRm(data, http, cluster, log);
    Http.await(Duration.ofSeconds(60), "the restarted RM to serve", () -> Http.get(base + "/info").status() == 200);
  }

  private long runningWorkers(String appId) throws Exception {
    long n = 0;
    for (JsonNode c : containers(appId)) {
      if (c.path("state").asText().equals("RUNNING") && !c.path("id").asText().endsWith("_000001")) n++;
    }
    return n;
  }

  private List<JsonNode> containers(String appId) throws Exception {
    String key = appId.substring("application_".length());
    List<JsonNode> out = new ArrayList<>();
    for (NodeManager nm : nms) {
      for (JsonNode c : Http.get("http://" + nm.httpAddress() + "/ws/v1/node/containers").json()
          .path("containers").path("container")) {
        if (c.path("id").asText().contains(key)) out.add(c);
      }
    }
    return out;
  }
}
