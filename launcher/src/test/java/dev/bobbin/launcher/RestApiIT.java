package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.protocol.WirePaths;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * YARN's REST API on a real RM member (embedded journal, no NodeManagers): the shapes, and every
 * refusal with its status and RemoteException, after which nothing was created.
 */
class RestApiIT {
  private static RmMember rm;
  private static String base;

  @BeforeAll
  static void start() throws Exception {
    rm = startMember();
    base = rm.url() + "/ws/v1/cluster";
  }

  /** An RM member in this JVM, its embedded journal in a new directory, with no NodeManagers. */
  static RmMember startMember() throws Exception {
    Path dir = Files.createTempDirectory("bobbin-rest-it");
    return RmMember.start(ConfigFactory.parseMap(Map.of(
        "bobbin.data-dir", dir.toString(),
        "bobbin.rm.http-port", freePort(),
        "pekko.remote.artery.canonical.port", freePort())));
  }

  @AfterAll
  static void stop() {
    if (rm != null) rm.close();
  }

  static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static String newAppId() throws Exception {
    return newAppId("");
  }

  /** An id issued to {@code user}, the only user that may submit under it; "" for the anonymous dr.who. */
  private static String newAppId(String user) throws Exception {
    Http.Reply r = Http.post(base + "/apps/new-application" + (user.isEmpty() ? "" : "?user.name=" + user), "");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json().path("maximum-resource-capability").path("memory").asLong()).isEqualTo(8192);
    return r.json().path("application-id").asText();
  }

  private static String submission(String appId, String queue, long memory) {
    return """
        {"application-id":"%s","application-name":"it","queue":"%s",
         "am-container-spec":{"commands":{"command":"sleep 1"}},
         "resource":{"memory":%d,"vCores":1},"application-type":"IT",
         "application-tags":{"tag":["a","b"]}}""".formatted(appId, queue, memory);
  }

  static void assertRemoteException(Http.Reply r, int status, String exception, String messagePart)
      throws Exception {
    assertThat(r.status()).as(r.body()).isEqualTo(status);
    JsonNode e = r.json().path("RemoteException");
    assertThat(e.path("exception").asText()).isEqualTo(exception);
    assertThat(e.path("javaClassName").asText()).endsWith("." + exception);
    assertThat(e.path("message").asText()).contains(messagePart);
  }

  @Test
  void clusterInfoHasYarnsShape() throws Exception {
    JsonNode info = Http.get(base + "/info").json().path("clusterInfo");
    assertThat(info.path("state").asText()).isEqualTo("STARTED");
    assertThat(info.path("haState").asText()).isEqualTo("ACTIVE");
    assertThat(info.path("id").asLong()).isPositive();
  }

  @Test
  void refusedSubmissionsGetYarnsErrorsAndCreateNothing() throws Exception {
    String malformed = newAppId();
    assertRemoteException(Http.post(base + "/apps", "{\"application-id\": \"" + malformed + "\", "),
        400, "BadRequestException", "Malformed request body");
    String unknownQueue = newAppId();
    assertRemoteException(Http.post(base + "/apps", submission(unknownQueue, "nosuchqueue", 1024)),
        400, "BadRequestException", "nosuchqueue");
    String tooBig = newAppId();
    assertRemoteException(Http.post(base + "/apps", submission(tooBig, "default", 100_000)),
        400, "InvalidResourceRequestException", "maximum allocation");
    assertRemoteException(Http.post(base + "/apps", submission("not-an-id", "default", 1024)),
        400, "BadRequestException", "Could not parse application id");

    String good = newAppId();
    Http.Reply ok = Http.post(base + "/apps", submission(good, "default", 1024));
    assertThat(ok.status()).isEqualTo(202);
    assertThat(ok.body()).isEmpty();
    Http.await(Duration.ofSeconds(20), "the accepted app in the list", () ->
        Http.get(base + "/apps").json().path("apps").path("app").toString().contains(good));
    String list = Http.get(base + "/apps").body();
    assertThat(list).doesNotContain(malformed).doesNotContain(unknownQueue).doesNotContain(tooBig);
    for (String id : new String[] {malformed, unknownQueue, tooBig}) {
      assertRemoteException(Http.get(base + "/apps/" + id), 404, "NotFoundException", "not found");
    }
  }

  @Test
  void anAcceptedAppIsReportedWithYarnsFieldsAndFilters() throws Exception {
    String id = newAppId("carol");
    assertThat(Http.post(base + "/apps?user.name=carol", submission(id, "root.default", 512)).status()).isEqualTo(202);
    JsonNode app = Http.get(base + "/apps/" + id).json().path("app");
    assertThat(app.path("id").asText()).isEqualTo(id);
    assertThat(app.path("user").asText()).isEqualTo("carol");
    assertThat(app.path("queue").asText()).isEqualTo("root.default");
    assertThat(app.path("state").asText()).isEqualTo("ACCEPTED");
    assertThat(app.path("finalStatus").asText()).isEqualTo("UNDEFINED");
    assertThat(app.path("applicationTags").asText()).isEqualTo("a,b");
    Http.await(Duration.ofSeconds(20), "the app listed for user carol", () ->
        Http.get(base + "/apps?user=carol&states=accepted").json().path("apps").path("app").size() == 1);
    assertThat(Http.get(base + "/apps?states=FINISHED&user=carol").json().path("apps").path("app").size()).isZero();
    assertRemoteException(Http.get(base + "/apps?states=BOGUS"), 400, "BadRequestException", "Invalid application-state");
    assertRemoteException(Http.get(base + "/apps?limit=0"), 400, "BadRequestException", "limit");
  }

  @Test
  void killMovesAnAppToKilledAndOnlyKilledIsAccepted() throws Exception {
    String id = newAppId();
    assertThat(Http.post(base + "/apps", submission(id, "default", 1024)).status()).isEqualTo(202);
    assertRemoteException(Http.put(base + "/apps/" + id + "/state", "{\"state\":\"RUNNING\"}"),
        400, "BadRequestException", "Only 'KILLED' is allowed");
    Http.Reply kill = Http.put(base + "/apps/" + id + "/state", "{\"state\":\"KILLED\"}");
    assertThat(kill.status()).isEqualTo(200);
    assertThat(kill.json().path("state").asText()).isEqualTo("KILLED");
    JsonNode app = Http.get(base + "/apps/" + id).json().path("app");
    assertThat(app.path("state").asText()).isEqualTo("KILLED");
    assertThat(app.path("finalStatus").asText()).isEqualTo("KILLED");
    assertRemoteException(Http.put(base + "/apps/application_1_9999/state", "{\"state\":\"KILLED\"}"),
        404, "NotFoundException", "not found");
  }

  @Test
  void priorityIsCappedAtTheClustersMaximumAndBadInputChangesNothing() throws Exception {
    String id = newAppId();
    String asked = submission(id, "default", 1024).replace("\"queue\"", "\"priority\":5,\"queue\"");
    assertThat(Http.post(base + "/apps", asked).status()).isEqualTo(202);
    // The FIFO policy keeps every application at 0, as YARN's FIFO scheduler does.
    assertThat(Http.get(base + "/apps/" + id).json().path("app").path("priority").asInt()).isZero();
    String path = base + "/apps/" + id + "/priority";
    assertThat(Http.get(path).body()).isEqualTo("{\"priority\":0}");

    assertRemoteException(Http.put(path, "{}"), 400, "BadRequestException", "Target Priority cannot be null");
    assertRemoteException(Http.put(path, "{\"priority\":\"high\"}"), 400, "BadRequestException",
        "priority must be a number, was 'high'");
    assertRemoteException(Http.put(path, "{\"priority\":-1}"), 400, "BadRequestException", "between 0 and");
    assertRemoteException(Http.put(path, "{\"priority\":"), 400, "BadRequestException", "Malformed request body");

    Http.Reply capped = Http.put(path, "{\"priority\":9}");
    assertThat(capped.status()).as(capped.body()).isEqualTo(200);
    assertThat(capped.json().path("priority").asInt()).isZero();

    assertThat(Http.put(base + "/apps/" + id + "/state", "{\"state\":\"KILLED\"}").status()).isEqualTo(200);
    Http.Reply ended = Http.put(path, "{\"priority\":0}");
    assertThat(ended.status()).isEqualTo(200);
    assertThat(ended.json().path("priority").asInt()).isZero();
    assertRemoteException(Http.put(base + "/apps/application_1_9999/priority", "{\"priority\":1}"),
        404, "NotFoundException", "not found");
    assertRemoteException(Http.get(base + "/apps/application_1_9999/priority"), 404, "NotFoundException",
        "not found");
  }

  @Test
  void nodeListIsEmptyWithoutNodeManagersAndBadStatesAreRefused() throws Exception {
    assertThat(Http.get(base + "/nodes").json().path("nodes").path("node").isArray()).isTrue();
    assertRemoteException(Http.get(base + "/nodes?states=SIDEWAYS"), 400, "BadRequestException", "SIDEWAYS");
  }

  @Test
  void amCallsWithAForgedTokenAreRefused() throws Exception {
    Http.Reply r = Http.send(HttpRequest.newBuilder(URI.create(rm.url() + WirePaths.AM_ALLOCATE))
        .header("Content-Type", "application/json").header(WirePaths.AM_TOKEN_HEADER, "Zm9yZ2Vk.Zm9yZ2Vk")
        .POST(HttpRequest.BodyPublishers.ofString("{\"responseId\":0}")));
    assertRemoteException(r, 401, "SecretManager$InvalidToken", "Invalid AMRMToken");
  }

  @Test
  void nmCallsWithBadBodiesAreRefusedWithTheProblemNamedAndRegisterNothing() throws Exception {
    String register = rm.url() + WirePaths.NM_REGISTER;
    assertRemoteException(nodeCall(register, "{\"nodeId\": \"bad-host:1\", "), 400, "BadRequestException",
        "Malformed request body");
    assertRemoteException(nodeCall(register, " \n"), 400, "BadRequestException", "The request body is empty");
    assertRemoteException(nodeCall(register, "null"), 400, "BadRequestException", "The request body is null");
    assertRemoteException(nodeCall(rm.url() + WirePaths.NM_HEARTBEAT, "[1, 2"), 400, "BadRequestException",
        "Malformed request body");
    assertThat(Http.get(base + "/nodes").body()).doesNotContain("bad-host");
  }

  /** A NodeManager protocol call with the cluster's node credential, so that the body is what is judged. */
  private static Http.Reply nodeCall(String url, String body) throws Exception {
    return Http.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
        .header(WirePaths.NODE_CREDENTIAL_HEADER, Files.readString(rm.nodeCredentialFile()).strip())
        .POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  @Test
  void metricsAreServedInPrometheusFormat() throws Exception {
    Http.Reply r = Http.get(rm.url() + "/metrics");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.body()).contains("# TYPE bobbin_cluster_apps_submitted gauge").contains("bobbin_cluster_total_mb ");
  }
}
