package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.am.shell.ShellAmSpec;
import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.WireJson;
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
 * Locality on real processes: an AM ({@link StrictNodeAm}) asks, through Bobbin's AM library, for one
 * container strictly on the node it does not run on, and gets exactly that container, once.
 */
class StrictLocalityIT {
  private RmMember rm;
  private final List<NodeManager> nms = new ArrayList<>();

  @AfterEach
  void stop() {
    nms.forEach(NodeManager::close);
    if (rm != null) rm.close();
  }

  @Test
  void aContainerAskedStrictlyOnANodeIsPlacedOnceAndOnThatNode(@TempDir Path dir) throws Exception {
    rm = RmMember.start(ConfigFactory.parseMap(Map.of(
        "bobbin.data-dir", dir.resolve("rm").toString(),
        "bobbin.rm.http-port", RestApiIT.freePort(),
        "pekko.remote.artery.canonical.port", RestApiIT.freePort())));
    for (int i = 1; i <= 2; i++) nms.add(ItNodes.start(rm, dir.resolve("nm-" + i)));
    String base = rm.url() + "/ws/v1/cluster";
    Http.await(Duration.ofSeconds(30), "two nodes", () ->
        Http.get(base + "/nodes?states=RUNNING").json().path("nodes").path("node").size() == 2);

    String id = Http.post(base + "/apps/new-application?user.name=alice", "").json().path("application-id").asText();
    String command = "{{JAVA_HOME}}/bin/java -cp " + ShellAmSpec.shellQuote(System.getProperty("java.class.path"))
        + " " + StrictNodeAm.class.getName() + " " + nms.get(0).nodeId() + " " + nms.get(1).nodeId();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("application-id", id);
    body.put("application-name", "strict-node");
    body.put("resource", new Resource(1024, 1));
    body.put("am-container-spec", Map.of("commands", Map.of("command", List.of(command))));
    Http.Reply submitted = Http.post(base + "/apps?user.name=alice", WireJson.mapper().writeValueAsString(body));
    assertThat(submitted.status()).as(submitted.body()).isEqualTo(202);

    Http.await(Duration.ofSeconds(90), "the application to finish", () ->
        Http.get(base + "/apps/" + id).json().path("app").path("state").asText().equals("FINISHED"));
    JsonNode app = Http.get(base + "/apps/" + id).json().path("app");
    assertThat(app.path("finalStatus").asText()).as(app.path("diagnostics").asText()).isEqualTo("SUCCEEDED");
    assertThat(app.path("diagnostics").asText()).containsPattern("strictly on (\\S+), got \\[\\1\\]");
  }
}
