package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.protocol.WirePaths;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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

  /** As Hadoop's RM and its clients write the submission (Jersey's natural notation): every value kept. */
  @Test
  void aSubmissionAsHadoopsWriterWritesItKeepsEveryValue() throws Exception {
    String id = newAppId();
    String body = """
        {"application-id":"%s","application-name":"natural","queue":"default","priority":-1,
         "am-container-spec":{"local-resources":{},
           "environment":{"entry":{"key":"A","value":"1"},"entry":{"key":"B","value":"2"}},
           "commands":[{"command":["echo a","echo b"]}],"service-data":{},"credentials":{"tokens":{},"secrets":{}},
           "application-acls":{"entry":{"key":"VIEW_APP","value":"u1"}}},
         "unmanaged-AM":false,"cancel-tokens-when-complete":true,"max-app-attempts":0,
         "resource":{"memory":512,"vCores":1,"resourceInformations":{}},"application-type":"",
         "keep-containers-across-application-attempts":false,"application-tags":[{"tag":["t1","t2"]}],
         "app-node-label-expression":"","am-container-node-label-expression":"",
         "attempt-failures-validity-interval":-1,"reservation-id":""}""".formatted(id);
    assertThat(Http.post(base + "/apps", body).status()).isEqualTo(202);
    JsonNode app = Http.get(base + "/apps/" + id).json().path("app");
    assertThat(app.path("name").asText()).isEqualTo("natural");
    assertThat(app.path("applicationTags").asText()).isEqualTo("t1,t2");
    Http.put(base + "/apps/" + id + "/state", "{\"state\":\"KILLED\"}");
  }

  @Test
  void aFieldBobbinDoesNotActOnIsRefusedByNameAndNothingIsCreated() throws Exception {
    String unknown = newAppId();
    assertRemoteException(Http.post(base + "/apps", submission(unknown, "default", 512)
        .replace("\"queue\"", "\"colour\":\"blue\",\"queue\"")), 400, "BadRequestException", "Unknown field colour");
    String labelled = newAppId();
    assertRemoteException(Http.post(base + "/apps", submission(labelled, "default", 512)
        .replace("\"queue\"", "\"app-node-label-expression\":\"gpu\",\"queue\"")), 400, "BadRequestException",
        "app-node-label-expression is not supported");
    for (String id : new String[] {unknown, labelled}) {
      assertRemoteException(Http.get(base + "/apps/" + id), 404, "NotFoundException", "not found");
    }
  }

  @Test
  void theClusterPathAnswersAsInfoWithTheTimestampOfTheApplicationIds() throws Exception {
    String id = newAppId();
    for (String path : new String[] {base, base + "/"}) {
      Http.Reply r = Http.get(path);
      assertThat(r.status()).as(path).isEqualTo(200);
      assertThat(id).startsWith("application_" + r.json().path("clusterInfo").path("id").asLong() + "_");
    }
  }

  @Test
  void unknownPathsAndMethodsUnderWsV1AreRemoteExceptions() throws Exception {
    for (String path : new String[] {"/ws/v1/nosuch", "/ws/v1/cluster/nosuch", "/ws/v1/cluster/apps/application_1_0001/nosuch"}) {
      assertRemoteException(Http.get(rm.url() + path), 404, "NotFoundException", "");
    }
    assertRemoteException(Http.send(HttpRequest.newBuilder(URI.create(base + "/info")).DELETE()), 405,
        "NotAllowedException", "");
  }

  @Test
  void repeatedStatesAreAllAppliedAndCompletedCountsOnlyFinished() throws Exception {
    String accepted = newAppId();
    assertThat(Http.post(base + "/apps", submission(accepted, "default", 512)).status()).isEqualTo(202);
    String killed = newAppId();
    assertThat(Http.post(base + "/apps", submission(killed, "default", 512)).status()).isEqualTo(202);
    assertThat(Http.put(base + "/apps/" + killed + "/state", "{\"state\":\"KILLED\"}").status()).isEqualTo(200);
    // The listing follows the applications' states a moment later.
    Http.await(Duration.ofSeconds(20), "both applications listed in their states", () ->
        Http.get(base + "/apps?states=KILLED").body().contains(killed)
            && Http.get(base + "/apps?states=ACCEPTED").body().contains(accepted));
    String both = Http.get(base + "/apps?states=ACCEPTED&states=KILLED").body();
    assertThat(both).contains(accepted).contains(killed);
    assertThat(Http.get(base + "/apps?states=KILLED").body()).contains(killed).doesNotContain(accepted);
    String comma = Http.get(base + "/apps?states=accepted,killed").body();
    assertThat(comma).contains(accepted).contains(killed);
    assertRemoteException(Http.get(base + "/apps?user=a&user=b"), 400, "BadRequestException", "user is given 2 times");
    JsonNode metrics = Http.get(base + "/metrics").json().path("clusterMetrics");
    assertThat(metrics.path("appsKilled").asInt()).isPositive();
    // No NodeManager here: nothing ever finished, and killed applications are not completed ones.
    assertThat(metrics.path("appsCompleted").asInt()).isZero();
  }

  @Test
  void xmlIsAnsweredInYarnsElementsAndAcceptedAsASubmission() throws Exception {
    assertXml(xml(HttpRequest.newBuilder(URI.create(base + "/info?user.name=dr.who")).GET()), "clusterInfo");
    assertXml(xml(HttpRequest.newBuilder(URI.create(base + "/metrics?user.name=dr.who")).GET()), "clusterMetrics");
    HttpResponse<String> issued = xml(HttpRequest.newBuilder(URI.create(base + "/apps/new-application?user.name=dr.who"))
        .POST(HttpRequest.BodyPublishers.noBody()));
    assertXml(issued, "NewApplication");
    String id = issued.body().replaceAll("(?s).*<application-id>(.*)</application-id>.*", "$1");
    String submission = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?><application-submission-context>
        <application-id>%s</application-id><application-name>in-xml</application-name><queue>default</queue>
        <am-container-spec><environment><entry><key>A</key><value>1</value></entry><entry><key>B</key><value>2</value>
        </entry></environment><commands><command>echo a</command><command>echo b</command></commands></am-container-spec>
        <resource><memory>512</memory><vCores>1</vCores></resource>
        <application-tags><tag>x1</tag><tag>x2</tag></application-tags></application-submission-context>""".formatted(id);
    HttpResponse<String> submitted = xml(HttpRequest.newBuilder(URI.create(base + "/apps?user.name=dr.who"))
        .header("Content-Type", "application/xml").POST(HttpRequest.BodyPublishers.ofString(submission)));
    assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(202);
    HttpResponse<String> app = xml(HttpRequest.newBuilder(URI.create(base + "/apps/" + id + "?user.name=dr.who")).GET());
    assertXml(app, "app");
    assertThat(app.body()).contains("<name>in-xml</name>").contains("<applicationTags>x1,x2</applicationTags>");
    assertXml(xml(HttpRequest.newBuilder(URI.create(base + "/apps?user.name=dr.who")).GET()), "apps");
    HttpResponse<String> kill = xml(HttpRequest.newBuilder(URI.create(base + "/apps/" + id + "/state?user.name=dr.who"))
        .header("Content-Type", "application/xml")
        .PUT(HttpRequest.BodyPublishers.ofString("<appstate><state>KILLED</state></appstate>")));
    assertXml(kill, "appstate");
    assertThat(kill.body()).contains("<state>KILLED</state>");
    HttpResponse<String> missing = xml(HttpRequest.newBuilder(URI.create(base + "/apps/application_1_9999?user.name=dr.who")).GET());
    assertThat(missing.statusCode()).isEqualTo(404);
    assertXml(missing, "RemoteException");
    // JSON stays the answer to a caller that names neither or both alike.
    HttpResponse<String> both = Http.client().send(HttpRequest.newBuilder(URI.create(base + "/info?user.name=dr.who"))
        .header("Accept", "application/json, application/xml").build(), HttpResponse.BodyHandlers.ofString());
    assertThat(both.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
    assertThat(both.body()).startsWith("{\"clusterInfo\"");
  }

  private static HttpResponse<String> xml(HttpRequest.Builder request) throws Exception {
    return Http.client().send(request.header("Accept", "application/xml").build(), HttpResponse.BodyHandlers.ofString());
  }

  private static void assertXml(HttpResponse<String> r, String root) {
    assertThat(r.headers().firstValue("Content-Type").orElse("")).as(r.body()).startsWith("application/xml");
    assertThat(r.body()).as(r.body()).matches("(?s)<\\?xml[^>]*\\?><" + root + ">.*</" + root + ">");
  }
}
