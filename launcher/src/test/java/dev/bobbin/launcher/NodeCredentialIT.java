package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.NodeCredential;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.WireJson;
import dev.bobbin.protocol.WirePaths;
import dev.bobbin.protocol.node.NodeHeartbeatRequest;
import dev.bobbin.protocol.node.RegisterNodeRequest;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A NodeManager joins an RM member only with the cluster's node credential, which the member made
 * in its data directory, and only from a host its host lists allow; the registration answer hands
 * it container-token keys and nothing else.
 */
class NodeCredentialIT {
  private static final String NOT_AUTHENTICATED =
      "org.apache.hadoop.security.authentication.client.AuthenticationException";
  private static RmMember rm;
  private static Path dataDir;
  private static Path excluded;

  @BeforeAll
  static void start() throws Exception {
    Path dir = Files.createTempDirectory("bobbin-node-credential-it");
    dataDir = dir.resolve("rm");
    excluded = dir.resolve("excluded-hosts");
    Files.writeString(excluded, "# retired\nbanned.example.org\n");
    rm = RmMember.start(ConfigFactory.parseMap(Map.of(
        "bobbin.data-dir", dataDir.toString(),
        "bobbin.rm.http-port", RestApiIT.freePort(),
        "pekko.remote.artery.canonical.port", RestApiIT.freePort(),
        "bobbin.rm.nodes.exclude-path", excluded.toString())));
  }

  @AfterAll
  static void stop() {
    if (rm != null) rm.close();
  }

  private static String credential() throws Exception {
    return Files.readString(rm.nodeCredentialFile(), StandardCharsets.UTF_8).strip();
  }

  private static Http.Reply call(String path, Object body, String credential) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(rm.url() + path))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(WireJson.mapper().writeValueAsBytes(body)));
    if (credential != null) b.header(WirePaths.NODE_CREDENTIAL_HEADER, credential);
    return Http.send(b);
  }

  private static RegisterNodeRequest registration(String host, int port) {
    return new RegisterNodeRequest(host + ":" + port, host, port, host + ":" + port, "/rack-a",
        Resource.of(4096, 4), List.of(), List.of(), "it");
  }

  private static JsonNode nodes() throws Exception {
    return Http.get(rm.url() + "/ws/v1/cluster/nodes").json().path("nodes").path("node");
  }

  @Test
  void theMemberMakesTheCredentialInItsDataDirectoryReadableByItsOwnerOnly() throws Exception {
    assertThat(rm.nodeCredentialFile()).isEqualTo(dataDir.resolve(NodeCredential.FILE_NAME).toAbsolutePath());
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(rm.nodeCredentialFile())))
        .isEqualTo("rw-------");
    assertThat(NodeCredential.read(rm.nodeCredentialFile(), "test")).isEqualTo(credential());
  }

  @Test
  void aNodeWithoutTheCredentialOrWithAnotherIsRefusedAndNothingIsCreated() throws Exception {
    String wrong = NodeCredential.readOrCreate(Files.createTempDirectory("other-cluster").resolve("c"), "test").value();
    for (String credential : java.util.Arrays.asList(null, "", wrong)) {
      Http.Reply r = call(WirePaths.NM_REGISTER, registration("127.0.0.1", 40001), credential);
      assertThat(r.status()).as(r.body()).isEqualTo(401);
      JsonNode e = r.json().path("RemoteException");
      assertThat(e.path("javaClassName").asText()).isEqualTo(NOT_AUTHENTICATED);
      assertThat(e.path("message").asText()).startsWith("NodeManager not authenticated: ")
          .contains(credential == wrong ? "not this cluster's" : "no node credential");
      Http.Reply hb = call(WirePaths.NM_HEARTBEAT,
          new NodeHeartbeatRequest("127.0.0.1:40001", 0, List.of(), true, ""), credential);
      assertThat(hb.status()).as(hb.body()).isEqualTo(401);
    }
    assertThat(nodes()).noneMatch(n -> n.path("id").asText().equals("127.0.0.1:40001"));
    assertThat(Http.get(rm.url() + "/ws/v1/cluster/nodes/127.0.0.1:40001").status()).isEqualTo(404);
  }

  @Test
  void aNodeWithTheCredentialRegistersAndIsHandedOnlyContainerTokenKeys() throws Exception {
    Http.Reply r = call(WirePaths.NM_REGISTER, registration("127.0.0.1", 40002), credential());

    assertThat(r.status()).as(r.body()).isEqualTo(200);
    JsonNode answer = r.json();
    assertThat(answer.path("nodeAction").asText()).isEqualTo("NORMAL");
    JsonNode keys = answer.path("containerTokenKeys");
    assertThat(keys.size()).isPositive();
    assertThat(keys).allSatisfy(k -> assertThat(k.path("key").asText()).isNotBlank());
    Http.await(java.time.Duration.ofSeconds(15), "the node to be listed", () ->
        nodes().findValuesAsText("id").contains("127.0.0.1:40002"));
  }

  @Test
  void anExcludedHostIsToldToShutDownAndIsNotListed() throws Exception {
    Http.Reply r = call(WirePaths.NM_REGISTER, registration("banned.example.org", 40003), credential());

    assertThat(r.status()).as(r.body()).isEqualTo(200);
    assertThat(r.json().path("nodeAction").asText()).isEqualTo("SHUTDOWN");
    assertThat(r.json().path("diagnostics").asText()).contains("Disallowed NodeManager", "banned.example.org");
    assertThat(r.json().path("containerTokenKeys").size()).isZero();
    assertThat(nodes().findValuesAsText("id")).doesNotContain("banned.example.org:40003");
  }

  @Test
  void aRefreshDecommissionsARunningNodeWhoseHostIsNowExcludedAndABadListChangesNothing() throws Exception {
    Http.Reply joined = call(WirePaths.NM_REGISTER, registration("retiring.example.org", 40004), credential());
    assertThat(joined.json().path("nodeAction").asText()).as(joined.body()).isEqualTo("NORMAL");
    Http.await(java.time.Duration.ofSeconds(15), "the node to be listed", () ->
        nodes().findValuesAsText("id").contains("retiring.example.org:40004"));
    String lists = Files.readString(excluded);

    Files.delete(excluded);
    Http.Reply bad = Http.put(rm.url() + "/ws/v1/cluster/admin/refresh-nodes", "");
    assertThat(bad.status()).as(bad.body()).isEqualTo(400);
    assertThat(bad.json().path("RemoteException").path("message").asText())
        .contains("bobbin.rm.nodes.exclude-path", excluded.toString());
    Http.Reply stillBanned = call(WirePaths.NM_REGISTER, registration("banned.example.org", 40005), credential());
    assertThat(stillBanned.json().path("nodeAction").asText()).as("the lists in use stay").isEqualTo("SHUTDOWN");

    Files.writeString(excluded, lists + "retiring.example.org\n");
    Http.Reply refreshed = Http.put(rm.url() + "/ws/v1/cluster/admin/refresh-nodes", "");
    assertThat(refreshed.status()).as(refreshed.body()).isEqualTo(200);
    assertThat(refreshed.json().path("result").asText()).contains("decommissioned retiring.example.org:40004");

    Http.Reply hb = call(WirePaths.NM_HEARTBEAT,
        new NodeHeartbeatRequest("retiring.example.org:40004", 0, List.of(), true, ""), credential());
    assertThat(hb.json().path("nodeAction").asText()).as(hb.body()).isEqualTo("SHUTDOWN");
    JsonNode node = Http.get(rm.url() + "/ws/v1/cluster/nodes/retiring.example.org:40004").json().path("node");
    assertThat(node.path("state").asText()).isEqualTo("DECOMMISSIONED");
    Http.Reply again = call(WirePaths.NM_REGISTER, registration("retiring.example.org", 40004), credential());
    assertThat(again.json().path("nodeAction").asText()).as("it cannot register again").isEqualTo("SHUTDOWN");
  }

  @Test
  void anAdministratorDecommissionsANodeGracefullyRecommissionsItAndBadRequestsAreRefused() throws Exception {
    Http.Reply joined = call(WirePaths.NM_REGISTER, registration("127.0.0.1", 40006), credential());
    assertThat(joined.json().path("nodeAction").asText()).as(joined.body()).isEqualTo("NORMAL");
    String state = rm.url() + "/ws/v1/cluster/nodes/127.0.0.1:40006/state";
    Http.await(java.time.Duration.ofSeconds(15), "the node to be listed", () ->
        nodes().findValuesAsText("id").contains("127.0.0.1:40006"));

    Http.Reply draining = Http.put(state, "{\"state\":\"DECOMMISSIONING\",\"decommissionTimeout\":600}");
    assertThat(draining.status()).as(draining.body()).isEqualTo(200);
    assertThat(draining.json().path("state").asText()).isEqualTo("DECOMMISSIONING");
    assertThat(Http.get(rm.url() + "/ws/v1/cluster/nodes?states=DECOMMISSIONING").json().findValuesAsText("id"))
        .containsExactly("127.0.0.1:40006");

    Http.Reply back = Http.put(state, "{\"state\":\"RUNNING\"}");
    assertThat(back.status()).as(back.body()).isEqualTo(200);
    JsonNode node = Http.get(rm.url() + "/ws/v1/cluster/nodes/127.0.0.1:40006").json().path("node");
    assertThat(node.path("state").asText()).isEqualTo("RUNNING");

    Http.Reply lost = Http.put(state, "{\"state\":\"LOST\"}");
    assertThat(lost.status()).isEqualTo(400);
    assertThat(lost.json().path("RemoteException").path("message").asText()).contains("Invalid node state 'LOST'");
    assertThat(Http.put(state, "{\"state\":\"DECOMMISSIONING\",\"timeout\":5}").json()
        .path("RemoteException").path("message").asText()).contains("Unknown field timeout");
    assertThat(Http.put(rm.url() + "/ws/v1/cluster/nodes/127.0.0.1:40999/state", "{\"state\":\"RUNNING\"}")
        .status()).isEqualTo(400);
    assertThat(Http.put(rm.url() + "/ws/v1/cluster/admin/refresh-nodes?graceful=soon", "").json()
        .path("RemoteException").path("message").asText()).contains("Invalid graceful soon");
  }
}
