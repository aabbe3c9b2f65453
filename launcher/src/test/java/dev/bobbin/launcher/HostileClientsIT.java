package dev.bobbin.launcher;

import static dev.bobbin.launcher.RestApiIT.assertRemoteException;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.protocol.WireJson;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a hostile or careless client sends an RM member: an application id it was not issued, and
 * requests too large, of the wrong type or shape, or with numbers and strings out of bounds. Each is
 * refused with its status and YARN's {@code RemoteException}, creates no application, and leaves
 * the member answering.
 */
class HostileClientsIT {
  private static final String ALICE = "alice";
  private static final String MALLORY = "mallory";
  private static RmMember rm;
  private static String base;

  @BeforeAll
  static void start() throws Exception {
    rm = RestApiIT.startMember();
    base = rm.url() + "/ws/v1/cluster";
  }

  @AfterAll
  static void stop() {
    if (rm != null) rm.close();
  }

  private static String newAppId(String user) throws Exception {
    Http.Reply r = Http.post(base + "/apps/new-application?user.name=" + user, "");
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return r.json().path("application-id").asText();
  }

  private static Map<String, Object> submission(String appId, String command) {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("application-id", appId);
    s.put("application-name", "it");
    s.put("queue", "default");
    s.put("am-container-spec", Map.of("commands", Map.of("command", command)));
    s.put("resource", Map.of("memory", 512, "vCores", 1));
    return s;
  }

  private static Map<String, Object> submission(String appId, String field, Object value) {
    Map<String, Object> s = submission(appId, "sleep 1");
    s.put(field, value);
    return s;
  }

  private static Http.Reply submit(String user, Object body) throws Exception {
    return Http.post(base + "/apps?user.name=" + user,
        body instanceof String raw ? raw : WireJson.mapper().writeValueAsString(body));
  }

  private static JsonNode apps() throws Exception {
    return Http.get(base + "/apps").json().path("apps").path("app");
  }

  private static int applicationCount() throws Exception {
    return apps().size();
  }

  /** Waits until the application list shows {@code appId}: every application made before it shows by then. */
  private static void awaitListed(String appId) throws Exception {
    Http.await(Duration.ofSeconds(20), appId + " in the application list", () -> apps().toString().contains(appId));
  }

  /**
   * The request is refused as YARN would refuse it, the member still answers, and the application
   * count did not change: an application submitted after the refusal is the only one added, which
   * the list shows only once it shows whatever was written before it.
   */
  private static void refused(Callable<Http.Reply> request, int status, String exception, String messagePart)
      throws Exception {
    int before = applicationCount();
    assertRemoteException(request.call(), status, exception, messagePart);
    assertThat(Http.get(base + "/info").json().path("clusterInfo").path("state").asText()).isEqualTo("STARTED");
    String marker = newAppId(ALICE);
    assertThat(submit(ALICE, submission(marker, "true")).status()).isEqualTo(202);
    awaitListed(marker);
    assertThat(applicationCount()).as("applications after a refused request").isEqualTo(before + 1);
  }

  /** As {@link #refused}, for a submission under an id issued to its user, which stays unknown. */
  private static void refusedSubmission(Map<String, Object> body, int status, String exception, String messagePart)
      throws Exception {
    String id = (String) body.get("application-id");
    refused(() -> submit(MALLORY, body), status, exception, messagePart);
    assertRemoteException(Http.get(base + "/apps/" + id), 404, "NotFoundException", "not found");
  }

  @Test
  void anIdNotIssuedToTheCallerIsRefusedAndTheVictimGetsItsOwnApplication() throws Exception {
    String mallorys = newAppId(MALLORY);
    String prefix = mallorys.substring(0, mallorys.lastIndexOf('_') + 1);
    String next = prefix + String.format("%04d", Long.parseLong(mallorys.substring(prefix.length())) + 1);
    int before = applicationCount();
    assertRemoteException(submit(MALLORY, submission(next, "application-name", "squatted")), 400,
        "BadRequestException", "was not issued by this cluster");

    String victims = newAppId(ALICE);
    assertThat(victims).isEqualTo(next);
    assertThat(submit(ALICE, submission(victims, "application-name", "mine")).status()).isEqualTo(202);
    awaitListed(victims);
    assertThat(applicationCount()).isEqualTo(before + 1);
    refused(() -> submit(MALLORY, submission(victims, "application-name", "squatted")), 403,
        "AccessControlException", "was not issued to user " + MALLORY);
    JsonNode app = Http.get(base + "/apps/" + victims).json().path("app");
    assertThat(app.path("user").asText()).isEqualTo(ALICE);
    assertThat(app.path("name").asText()).isEqualTo("mine");

    String stamp = prefix.substring("application_".length(), prefix.length() - 1);
    refused(() -> submit(MALLORY, submission("application_" + (Long.parseLong(stamp) - 1) + "_0001", "sleep 1")), 400,
        "BadRequestException", "was not issued by this cluster");
    refused(() -> submit(MALLORY, submission(prefix + "1".repeat(40), "sleep 1")), 400, "BadRequestException",
        "Could not parse application id");
  }

  @Test
  void aRetriedSubmissionIsAcceptedOnceAndADifferentOneUnderItsIdIsRefused() throws Exception {
    String id = newAppId(ALICE);
    int before = applicationCount();
    Http.Reply first = submit(ALICE, submission(id, "sleep 1"));
    Http.Reply retry = submit(ALICE, submission(id, "sleep 1"));
    assertThat(first.status()).isEqualTo(202);
    assertThat(retry).isEqualTo(first);
    awaitListed(id);
    assertThat(applicationCount()).isEqualTo(before + 1);
    JsonNode attempts = Http.get(base + "/apps/" + id + "/appattempts").json().path("appAttempts").path("appAttempt");
    assertThat(attempts.size()).isEqualTo(1);

    refused(() -> submit(ALICE, submission(id, "sleep 2")), 400, "BadRequestException",
        "used by a different submission");
  }

  @Test
  void requestsTooLargeOfTheWrongTypeOrForAMethodNotServedAreRefused() throws Exception {
    String huge = "n".repeat(1_100_000);
    refusedSubmission(submission(newAppId(MALLORY), "application-name", huge), 413, "WebApplicationException",
        "bobbin.http.max-request-body");
    String json = WireJson.mapper().writeValueAsString(submission(newAppId(MALLORY), "sleep 1"));
    refused(() -> Http.send(HttpRequest.newBuilder(URI.create(base + "/apps?user.name=" + MALLORY))
            .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString(json))),
        415, "NotSupportedException", "application/json");
    refused(() -> Http.send(HttpRequest.newBuilder(URI.create(base + "/apps")).DELETE()), 405,
        "NotAllowedException", "GET");
  }

  @Test
  void numbersOutsideTheirTypeFractionsAndStringsForNumbersAreRefused() throws Exception {
    refusedSubmission(submission(newAppId(MALLORY), "resource", Map.of("memory", 512, "vCores", 4294967297L)), 400,
        "BadRequestException", "vCores");
    refusedSubmission(submission(newAppId(MALLORY), "priority", 4294967301L), 400, "BadRequestException",
        "priority");
    refusedSubmission(submission(newAppId(MALLORY), "resource", Map.of("memory", 1.9, "vCores", 1)), 400,
        "BadRequestException", "memory must be a whole number");
    refusedSubmission(submission(newAppId(MALLORY), "resource", "big"), 400, "BadRequestException",
        "resource must be a JSON object");
  }

  @Test
  void badLocalResourcesAreRefusedNamingTheField() throws Exception {
    Map<String, Object> hdfs = Map.of("resource", "hdfs://nn/app.jar", "type", "FILE", "visibility", "PUBLIC",
        "size", 10, "timestamp", 20);
    refusedSubmission(submission(newAppId(MALLORY), "am-container-spec", Map.of("commands", Map.of("command", "true"),
        "local-resources", Map.of("entry", List.of(Map.of("key", "app.jar", "value", hdfs))))), 400,
        "BadRequestException", "am-container-spec.local-resources[app.jar].resource must be a file://, http:// or https:// URL");
    Map<String, Object> empty = new LinkedHashMap<>(hdfs);
    empty.put("resource", "http://repo/app.jar");
    empty.put("size", 0);
    refusedSubmission(submission(newAppId(MALLORY), "am-container-spec", Map.of("commands", Map.of("command", "true"),
        "local-resources", Map.of("entry", List.of(Map.of("key", "app.jar", "value", empty))))), 400,
        "BadRequestException", "am-container-spec.local-resources[app.jar].size must be greater than 0");
  }

  @Test
  void namesTagsAndNestingBeyondTheirBoundsAreRefused() throws Exception {
    refusedSubmission(submission(newAppId(MALLORY), "application-name", "n".repeat(1025)), 400,
        "BadRequestException", "application-name may have at most 1024 characters");
    refusedSubmission(submission(newAppId(MALLORY), "application-type", "T".repeat(21)), 400,
        "BadRequestException", "application-type may have at most 20 characters");
    List<String> tags = IntStream.range(0, 100_000).mapToObj(i -> "t" + i).toList();
    refusedSubmission(submission(newAppId(MALLORY), "application-tags", Map.of("tag", tags)), 400,
        "BadRequestException", "at most 10 tags");
    refusedSubmission(submission(newAppId(MALLORY), "application-tags", List.of("x".repeat(101))), 400,
        "BadRequestException", "a tag may have at most 100 characters");
    String deep = "[".repeat(100) + "]".repeat(100);
    String nested = "{\"application-id\":\"" + newAppId(MALLORY) + "\",\"x\":" + deep + "}";
    refused(() -> submit(MALLORY, nested), 400, "BadRequestException", "Malformed request body");
  }

  @Test
  void idsInPathsAreCheckedAgainstYarnsFormatsBeforeAnyLookup() throws Exception {
    refused(() -> Http.get(base + "/apps/application_1_" + "1".repeat(40)), 400, "BadRequestException",
        "Invalid ApplicationId");
    refused(() -> Http.put(base + "/apps/not-an-id/state", "{\"state\":\"KILLED\"}"), 400, "BadRequestException",
        "Invalid ApplicationId: not-an-id");
    refused(() -> Http.get(base + "/nodes/no-port"), 400, "BadRequestException", "Invalid NodeId: no-port");
  }

  @Test
  void aKillsReasonBeyondItsBoundIsRefusedAndTheApplicationLivesOn() throws Exception {
    String id = newAppId(ALICE);
    assertThat(submit(ALICE, submission(id, "sleep 1")).status()).isEqualTo(202);
    awaitListed(id);
    refused(() -> Http.put(base + "/apps/" + id + "/state?user.name=" + ALICE,
        "{\"state\":\"KILLED\",\"diagnostics\":\"" + "d".repeat(4097) + "\"}"), 400, "BadRequestException",
        "diagnostics may have at most 4096 characters");
    assertThat(Http.get(base + "/apps/" + id).json().path("app").path("state").asText()).isEqualTo("ACCEPTED");
  }
}
