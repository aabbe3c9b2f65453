package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.node.aux.FileServingService;
import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.WireJson;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A REST submission's {@code service-data} reaches the AM container's NodeManager: its file-serving
 * service gives the AM a directory, serves what the AM writes there to the holder of the
 * application's secret, and stops once the application was killed.
 */
class AuxFilesIT {
  private static final String SECRET = "a secret only this application knows";

  private RmMember rm;
  private NodeManager nm;

  @AfterEach
  void stop() {
    if (nm != null) nm.close();
    if (rm != null) rm.close();
  }

  private static Http.Reply fetch(String url, String secret) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).GET();
    if (secret != null) b.header(FileServingService.SECRET_HEADER, secret);
    return Http.sendAsIs(b.build());
  }

  @Test
  void theAmsFileIsServedFromItsNodeManagerUntilTheApplicationEnds(@TempDir Path dir) throws Exception {
    rm = RmMember.start(ConfigFactory.parseMap(Map.of(
        "bobbin.data-dir", dir.resolve("rm").toString(),
        "bobbin.rm.http-port", RestApiIT.freePort(),
        "pekko.remote.artery.canonical.port", RestApiIT.freePort())));
    nm = ItNodes.start(rm, dir.resolve("nm"), ConfigFactory.parseMap(Map.of(
        "bobbin.nm.aux-services", List.of("files"),
        "bobbin.nm.aux-service.files.class", FileServingService.class.getName())));
    String base = rm.url() + "/ws/v1/cluster";
    Http.await(Duration.ofSeconds(30), "the node", () ->
        Http.get(base + "/nodes?states=RUNNING").json().path("nodes").path("node").size() == 1);

    String id = Http.post(base + "/apps/new-application", "").json().path("application-id").asText();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("application-id", id);
    body.put("application-name", "offers-a-file");
    body.put("resource", new Resource(256, 1));
    body.put("am-container-spec", Map.of(
        "commands", Map.of("command", "echo \"written by $CONTAINER_ID\" > \"$BOBBIN_SERVED_FILES_DIR/result\"; sleep 300"),
        "service-data", Map.of("entry", List.of(Map.of("key", "files",
            "value", Base64.getUrlEncoder().withoutPadding().encodeToString(SECRET.getBytes(StandardCharsets.UTF_8)))))));
    Http.Reply submitted = Http.post(base + "/apps", WireJson.mapper().writeValueAsString(body));
    assertThat(submitted.status()).as(submitted.body()).isEqualTo(202);

    String[] url = new String[1];
    Http.await(Duration.ofSeconds(60), "the AM's file", () -> {
      JsonNode attempt = Http.get(base + "/apps/" + id + "/appattempts").json()
          .path("appAttempts").path("appAttempt").path(0);
      if (attempt.path("containerId").asText().isEmpty()) return false;
      url[0] = "http://" + nm.httpAddress() + "/aux/files/" + id + "/" + attempt.path("containerId").asText()
          + "/result";
      return fetch(url[0], SECRET).status() == 200;
    });
    assertThat(fetch(url[0], SECRET).body()).startsWith("written by container_");
    assertThat(fetch(url[0], null).status()).isEqualTo(401);
    assertThat(fetch(url[0], "not the application's secret").status()).isEqualTo(403);

    assertThat(Http.put(base + "/apps/" + id + "/state", "{\"state\":\"KILLED\"}").status()).isIn(200, 202);

    Http.await(Duration.ofSeconds(30), "the file service to forget the application",
        () -> fetch(url[0], SECRET).status() == 404);
  }
}
