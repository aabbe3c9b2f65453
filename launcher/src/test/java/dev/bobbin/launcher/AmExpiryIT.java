package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.NmSettings;
import dev.bobbin.node.server.NodeManager;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** YARN's AM liveness monitor on real processes: an AM that never calls the RM times out, attempt after attempt. */
class AmExpiryIT {
  private RmMember rm;
  private NodeManager nm;

  @AfterEach
  void stop() {
    if (nm != null) nm.close();
    if (rm != null) rm.close();
  }

  @Test
  void anAmThatNeverRegistersTimesOutAndTheApplicationFailsAfterItsAttempts(@TempDir Path dir) throws Exception {
    rm = RmMember.start(ConfigFactory.parseMap(Map.of(
        "bobbin.data-dir", dir.resolve("rm").toString(),
        "bobbin.rm.http-port", RestApiIT.freePort(),
        "pekko.remote.artery.canonical.port", RestApiIT.freePort(),
        "bobbin.rm.am-expiry", "2s")));
    nm = NodeManager.start(NmSettings.from(ConfigFactory.parseMap(Map.of(
        "bobbin.nm.rm-addresses", List.of(rm.url()),
        "bobbin.nm.http-port", RestApiIT.freePort(),
        "bobbin.nm.memory-mb", 4096,
        "bobbin.nm.vcores", 4,
        "bobbin.nm.node-credential-file", rm.nodeCredentialFile().toString(),
        "bobbin.nm.work-dir", dir.resolve("nm").toString())).withFallback(ConfigFactory.load())));
    String base = rm.url() + "/ws/v1/cluster";
    Http.await(Duration.ofSeconds(30), "the node", () ->
        Http.get(base + "/nodes?states=RUNNING").json().path("nodes").path("node").size() == 1);

    String id = Http.post(base + "/apps/new-application", "").json().path("application-id").asText();
    Http.Reply submitted = Http.post(base + "/apps", """
        {"application-id":"%s","am-container-spec":{"commands":{"command":"sleep 600"}},
         "resource":{"memory":1024,"vCores":1},"max-app-attempts":2}""".formatted(id));
    assertThat(submitted.status()).as(submitted.body()).isEqualTo(202);

    Http.await(Duration.ofSeconds(60), "the application to fail", () ->
        Http.get(base + "/apps/" + id).json().path("app").path("state").asText().equals("FAILED"));
    JsonNode app = Http.get(base + "/apps/" + id).json().path("app");
    assertThat(app.path("diagnostics").asText()).contains("failed 2 times")
        .contains("ApplicationMaster for attempt appattempt_" + id.substring("application_".length()) + "_000002 timed out");
    // Both AM processes were killed: nothing of the application runs on the node any more.
    Http.await(Duration.ofSeconds(30), "no AM container of the application running on the node", () -> {
      for (JsonNode c : Http.get("http://" + nm.httpAddress() + "/ws/v1/node/containers").json()
          .path("containers").path("container")) {
        if (List.of("NEW", "RUNNING", "KILLING").contains(c.path("state").asText())) return false;
      }
      return true;
    });
  }
}
