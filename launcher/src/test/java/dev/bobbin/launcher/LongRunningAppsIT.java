package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.node.server.NodeManager;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Long-running applications on real processes: an AM that keeps failing is retried for as long as
 * its failures stay outside the validity window, and an application outliving its lifetime is killed.
 */
class LongRunningAppsIT {
  private RmMember rm;
  private NodeManager nm;
  private String base;

  @AfterEach
  void stop() {
    if (nm != null) nm.close();
    if (rm != null) rm.close();
  }

  private void startCluster(Path dir) throws Exception {
    rm = RmMember.start(ConfigFactory.parseMap(Map.of(
        "bobbin.data-dir", dir.resolve("rm").toString(),
        "bobbin.rm.http-port", RestApiIT.freePort(),
        "pekko.remote.artery.canonical.port", RestApiIT.freePort())));
    nm = ItNodes.start(rm, dir.resolve("nm"));
    base = rm.url() + "/ws/v1/cluster";
    Http.await(Duration.ofSeconds(30), "the node", () ->
        Http.get(base + "/nodes?states=RUNNING").json().path("nodes").path("node").size() == 1);
  }

  /** Submits an application whose AM runs {@code command}, with the submission's {@code extra} fields. */
  private String submit(String command, String extra) throws Exception {
    String id = Http.post(base + "/apps/new-application", "").json().path("application-id").asText();
    Http.Reply submitted = Http.post(base + "/apps", """
        {"application-id":"%s","am-container-spec":{"commands":{"command":"%s"}},
         "resource":{"memory":512,"vCores":1},"max-app-attempts":2%s}""".formatted(id, command, extra));
    assertThat(submitted.status()).as(submitted.body()).isEqualTo(202);
    return id;
  }

  private JsonNode app(String id) throws Exception {
    return Http.get(base + "/apps/" + id).json().path("app");
  }

  private int attempts(String id) throws Exception {
    return Http.get(base + "/apps/" + id + "/appattempts").json().path("appAttempts").path("appAttempt").size();
  }

  /** The number of the application's latest attempt. */
  private int latestAttempt(String id) throws Exception {
    JsonNode listed = Http.get(base + "/apps/" + id + "/appattempts").json().path("appAttempts").path("appAttempt");
    return listed.isEmpty() ? 0 : listed.get(listed.size() - 1).path("id").asInt();
  }

  @Test
  void anAmFailingEveryTwoSecondsIsRetriedPastMaxAttemptsOnlyWithAOneSecondWindow(@TempDir Path dir)
      throws Exception {
    startCluster(dir);
    String windowed = submit("sleep 2; exit 1", ",\"attempt-failures-validity-interval\":1000");
    String unbounded = submit("sleep 2; exit 1", "");

    Http.await(Duration.ofSeconds(60), "the application without a window to fail", () ->
        app(unbounded).path("state").asText().equals("FAILED"));
    assertThat(app(unbounded).path("diagnostics").asText()).contains("failed 2 times due to")
        .contains("exitCode: 1");
    assertThat(attempts(unbounded)).isEqualTo(2);

    // Each failure leaves the 1 s window before the next one: never two in it, so it runs on.
    Http.await(Duration.ofSeconds(90), "a fourth attempt of the application with a window", () ->
        latestAttempt(windowed) >= 4);
    // Attempts beyond the maximum that ended before the window are no longer listed.
    assertThat(attempts(windowed)).isLessThanOrEqualTo(3);
    JsonNode app = app(windowed);
    assertThat(app.path("state").asText()).isIn("ACCEPTED", "RUNNING");
    assertThat(app.path("maxAppAttempts").asInt()).isEqualTo(2);
    assertThat(app.path("attemptFailuresValidityInterval").asLong()).isEqualTo(1000);
    assertThat(app.path("attemptFailuresCounted").asInt()).isLessThan(2);
    assertThat(Http.put(base + "/apps/" + windowed + "/state", "{\"state\":\"KILLED\"}").status()).isIn(200, 202);
    Http.await(Duration.ofSeconds(30), "the windowed application killed", () ->
        app(windowed).path("state").asText().equals("KILLED"));
  }

  @Test
  void anApplicationPastItsTenSecondLifetimeIsKilledAndBadUpdatesChangeNothing(@TempDir Path dir) throws Exception {
    startCluster(dir);
    String id = submit("sleep 600", ",\"application-timeouts\":{\"entry\":[{\"key\":\"LIFETIME\",\"value\":10}]}");
    JsonNode lifetime = Http.get(base + "/apps/" + id + "/timeouts").json().path("timeouts").path("timeout").get(0);
    assertThat(lifetime.path("type").asText()).isEqualTo("LIFETIME");
    assertThat(lifetime.path("remainingTimeInSeconds").asLong()).isBetween(1L, 10L);
    String expiry = lifetime.path("expiryTime").asText();
    assertThat(Http.get(base + "/apps/" + id + "/timeouts/lifetime").json().path("timeout").path("expiryTime")
        .asText()).isEqualTo(expiry);

    // Refused with YARN's RemoteException, and the lifetime stays as it was.
    assertBadRequest(Http.put(base + "/apps/" + id + "/timeout",
        "{\"timeout\":{\"type\":\"IDLE\",\"expiryTime\":\"2099-01-01T00:00:00.000+0000\"}}"), "IDLE");
    assertBadRequest(Http.put(base + "/apps/" + id + "/timeout",
        "{\"timeout\":{\"type\":\"LIFETIME\",\"expiryTime\":\"next week\"}}"), "ISO8601");
    assertBadRequest(Http.put(base + "/apps/" + id + "/timeout",
        "{\"timeout\":{\"type\":\"LIFETIME\",\"expiryTime\":\"2001-01-01T00:00:00.000+0000\"}}"),
        "less than current time");
    assertBadRequest(Http.put(base + "/apps/" + id + "/timeout", "{\"timeout\":{\"type\":\"LIFETIME\"}}"),
        "Timeout type or ExpiryTime is null.");
    assertThat(Http.get(base + "/apps/" + id + "/timeout").json().path("timeout").path("expiryTime").asText())
        .isEqualTo(expiry);

    Http.await(Duration.ofSeconds(40), "the application killed at the end of its lifetime", () ->
        app(id).path("state").asText().equals("KILLED"));
    JsonNode app = app(id);
    assertThat(app.path("diagnostics").asText()).contains("exceeded the lifetime period");
    assertThat(app.path("finishedTime").asLong() - app.path("startedTime").asLong()).isGreaterThanOrEqualTo(10_000);
    assertThat(app.path("timeouts").path("timeout").get(0).path("remainingTimeInSeconds").asLong()).isZero();
    // Its AM process was killed: nothing of it runs on the node any more.
    Http.await(Duration.ofSeconds(30), "no container of the application running on the node", () -> {
      for (JsonNode c : Http.get("http://" + nm.httpAddress() + "/ws/v1/node/containers").json()
          .path("containers").path("container")) {
        if (List.of("NEW", "RUNNING", "KILLING").contains(c.path("state").asText())) return false;
      }
      return true;
    });
  }

  private static void assertBadRequest(Http.Reply r, String messagePart) throws Exception {
    assertThat(r.status()).as(r.body()).isEqualTo(400);
    JsonNode e = r.json().path("RemoteException");
    assertThat(e.path("exception").asText()).isEqualTo("BadRequestException");
    assertThat(e.path("message").asText()).contains(messagePart);
  }
}
