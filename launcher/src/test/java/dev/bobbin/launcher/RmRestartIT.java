package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An RM member as a real process: kill -9, restart on the same data directory, nothing accepted is lost. */
class RmRestartIT {
  private Process rm;

  @AfterEach
  void stop() {
    if (rm != null) rm.destroyForcibly();
  }

  private Process startRm(Path dataDir, int httpPort, int clusterPort, Path log) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
            "dev.bobbin.launcher.Main", "rm", "--data-dir", dataDir.toString(),
            "--http-port", String.valueOf(httpPort), "--cluster-port", String.valueOf(clusterPort)))
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
  }

  @Test
  void acceptedAndKilledApplicationsSurviveAKillNine(@TempDir Path dir) throws Exception {
    int http = RestApiIT.freePort();
    int cluster = RestApiIT.freePort();
    Path data = dir.resolve("data");
    Path log = dir.resolve("rm.log");
    String base = "http://127.0.0.1:" + http + "/ws/v1/cluster";
    rm = startRm(data, http, cluster, log);
    awaitUp(base, log);

    String accepted = submit(base);
    String killed = submit(base);
    assertThat(Http.put(base + "/apps/" + killed + "/state", "{\"state\":\"KILLED\"}").status()).isEqualTo(200);

    rm.destroyForcibly().waitFor();
    assertThat(rm.exitValue()).as("killed by SIGKILL").isEqualTo(137);

    rm = startRm(data, http, cluster, log);
    awaitUp(base, log);
    assertThat(Http.get(base + "/apps/" + accepted).json().path("app").path("state").asText()).isEqualTo("ACCEPTED");
    assertThat(Http.get(base + "/apps/" + killed).json().path("app").path("state").asText()).isEqualTo("KILLED");
    Http.await(Duration.ofSeconds(30), "both apps listed after the restart", () -> {
      JsonNode apps = Http.get(base + "/apps").json().path("apps").path("app");
      return apps.toString().contains(accepted) && apps.toString().contains(killed);
    });
    String fresh = submit(base);
    assertThat(fresh).isNotIn(accepted, killed);
  }

  private static String submit(String base) throws Exception {
    String id = Http.post(base + "/apps/new-application", "").json().path("application-id").asText();
    Http.Reply r = Http.post(base + "/apps", """
        {"application-id":"%s","am-container-spec":{"commands":{"command":"sleep 1"}},
         "resource":{"memory":1024,"vCores":1}}""".formatted(id));
    assertThat(r.status()).as(r.body()).isEqualTo(202);
    return id;
  }

  private void awaitUp(String base, Path log) throws Exception {
    try {
      Http.await(Duration.ofSeconds(60), "the RM to serve", () -> {
        if (!rm.isAlive()) throw new IllegalStateException("RM exited with " + rm.exitValue());
        return Http.get(base + "/info").status() == 200;
      });
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "\n" + Files.readString(log), e);
    }
  }

}
