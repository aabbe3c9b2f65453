package dev.bobbin.launcher;

import static dev.bobbin.launcher.RestApiIT.assertRemoteException;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Moving a running distributed-shell application between the capacity policy's queues on real
 * processes: the report and the scheduler view follow it, and every refused move (bad body, no such
 * queue, a parent, a stopped queue, an ended application) changes nothing.
 */
class AppMoveIT {
  private CapacityRm rm;

  @AfterEach
  void stop() throws Exception {
    if (rm != null) rm.close();
  }

  @Test
  void aRunningApplicationMovesToAnotherLeafAndRefusedMovesChangeNothing(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("capacity-scheduler.xml");
    Files.writeString(file, """
        <?xml version="1.0"?>
        <configuration>
          <property><name>yarn.scheduler.capacity.root.queues</name><value>a,b,c</value></property>
          <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>40</value></property>
          <property><name>yarn.scheduler.capacity.root.b.capacity</name><value>40</value></property>
          <property><name>yarn.scheduler.capacity.root.c.capacity</name><value>20</value></property>
          <property><name>yarn.scheduler.capacity.root.c.state</name><value>STOPPED</value></property>
          <property><name>yarn.scheduler.capacity.maximum-am-resource-percent</name><value>0.5</value></property>
        </configuration>
        """);
    rm = CapacityRm.start(dir, file);
    String base = rm.base;
    rm.startNode(dir);

    String id = Http.post(base + "/apps/new-application?user.name=alice", "").json().path("application-id").asText();
    Http.Reply submitted = Http.post(base + "/apps?user.name=alice", CapacityQueuesIT.body(id, "a", "sleep 600"));
    assertThat(submitted.status()).as(submitted.body()).isEqualTo(202);
    Http.await(Duration.ofSeconds(60), "the AM and its worker", () -> app(base, id).path("allocatedMB").asLong() == 2048);
    String path = base + "/apps/" + id + "/queue?user.name=alice";
    assertThat(Http.get(path).body()).isEqualTo("{\"queue\":\"root.a\"}");
    // Running, it is tracked as YARN tracks it: its AM registered no URL, so at its report on the RM.
    JsonNode running = app(base, id);
    assertThat(running.path("trackingUI").asText()).isEqualTo("ApplicationMaster");
    assertThat(running.path("trackingUrl").asText()).startsWith("http://").endsWith("/ws/v1/cluster/apps/" + id);
    assertThat(Http.get(running.path("trackingUrl").asText() + "?user.name=alice").json().path("app").path("id").asText())
        .isEqualTo(id);

    // Refusals: each a RemoteException, each leaving the application where it was.
    assertRemoteException(Http.put(path, "{\"queue\":"), 400, "BadRequestException", "Malformed request body");
    assertRemoteException(Http.put(path, "{}"), 400, "BadRequestException", "Target queue cannot be empty");
    assertRemoteException(Http.put(path, "{\"queue\":\"nope\"}"), 400, "BadRequestException",
        "The specified Queue: nope doesn't exist");
    assertRemoteException(Http.put(path, "{\"queue\":\"root\"}"), 400, "BadRequestException",
        "The specified Queue: root is not a Leaf Queue.");
    assertRemoteException(Http.put(path, "{\"queue\":\"c\"}"), 400, "BadRequestException", "c is STOPPED");
    assertThat(app(base, id).path("queue").asText()).isEqualTo("root.a");
    assertThat(queue(base, "root.c").path("numApplications").asInt()).isZero();

    Http.Reply moved = Http.put(path, "{\"queue\":\"b\"}");
    assertThat(moved.status()).as(moved.body()).isEqualTo(200);
    assertThat(moved.body()).isEqualTo("{\"queue\":\"root.b\"}");
    assertThat(app(base, id).path("queue").asText()).isEqualTo("root.b");
    assertThat(app(base, id).path("state").asText()).isEqualTo("RUNNING");
    Http.await(Duration.ofSeconds(10), "the scheduler view to show it in b", () -> {
      JsonNode b = queue(base, "root.b");
      return b.path("numActiveApplications").asInt() == 1 && b.path("resourcesUsed").path("memory").asLong() == 2048
          && queue(base, "root.a").path("resourcesUsed").path("memory").asLong() == 0;
    });
    // Moving it where it is changes nothing and answers where it is.
    assertThat(Http.put(path, "{\"queue\":\"root.b\"}").body()).isEqualTo("{\"queue\":\"root.b\"}");

    assertThat(Http.put(base + "/apps/" + id + "/state?user.name=alice", "{\"state\":\"KILLED\"}").status())
        .isEqualTo(200);
    assertRemoteException(Http.put(path, "{\"queue\":\"a\"}"), 400, "BadRequestException",
        "App in KILLED state cannot be moved.");
    assertThat(app(base, id).path("queue").asText()).isEqualTo("root.b");
  }

  private static JsonNode app(String base, String id) throws Exception {
    return Http.get(base + "/apps/" + id).json().path("app");
  }

  private static JsonNode queue(String base, String path) throws Exception {
    return CapacityQueuesIT.queue(base, path);
  }
}
