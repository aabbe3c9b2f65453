package dev.bobbin.launcher;

import static dev.bobbin.launcher.RestApiIT.assertRemoteException;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.NmSettings;
import dev.bobbin.config.NodeCredential;
import dev.bobbin.node.server.NodeManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Moving a running distributed-shell application between the capacity policy's queues on real
 * processes: the report and the scheduler view follow it, and every refused move (bad body, no such
 * queue, a parent, a stopped queue, an ended application) changes nothing.
 */
class AppMoveIT {
  private Process rm;
  private NodeManager nm;

  @AfterEach
  void stop() throws Exception {
    if (nm != null) nm.close();
    if (rm != null) {
      rm.destroy();
      if (!rm.waitFor(30, TimeUnit.SECONDS)) rm.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
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
    int port = RestApiIT.freePort();
    Path data = dir.resolve("rm");
    rm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
        "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), Main.class.getName(), "rm",
        "--scheduler", "capacity", "--capacity-file", file.toString(), "--data-dir", data.toString(),
        "--hostname", "127.0.0.1", "--http-port", Integer.toString(port),
        "--cluster-port", Integer.toString(RestApiIT.freePort()))
        .redirectErrorStream(true).redirectOutput(dir.resolve("rm.log").toFile()).start();
    String base = "http://127.0.0.1:" + port + "/ws/v1/cluster";
    Http.await(Duration.ofSeconds(90), "the RM to serve", () -> {
      if (!rm.isAlive()) throw new IllegalStateException("the RM exited: " + Files.readString(dir.resolve("rm.log")));
      return Http.get(base + "/info", Duration.ofSeconds(2)).status() == 200;
    });
    nm = NodeManager.start(NmSettings.from(ConfigFactory.parseMap(Map.of(
        "bobbin.nm.rm-addresses", List.of("http://127.0.0.1:" + port),
        "bobbin.nm.http-port", RestApiIT.freePort(),
        "bobbin.nm.memory-mb", 8192,
        "bobbin.nm.vcores", 8,
        "bobbin.nm.node-credential-file", data.resolve(NodeCredential.FILE_NAME).toString(),
        "bobbin.nm.work-dir", dir.resolve("nm").toString())).withFallback(ConfigFactory.load())));
    Http.await(Duration.ofSeconds(30), "the node", () ->
        Http.get(base + "/nodes?states=RUNNING").json().path("nodes").path("node").size() == 1);

    String id = Http.post(base + "/apps/new-application?user.name=alice", "").json().path("application-id").asText();
    Http.Reply submitted = Http.post(base + "/apps?user.name=alice", CapacityQueuesIT.body(id, "a", "sleep 600"));
    assertThat(submitted.status()).as(submitted.body()).isEqualTo(202);
    Http.await(Duration.ofSeconds(60), "the AM and its worker", () -> app(base, id).path("allocatedMB").asLong() == 2048);
    String path = base + "/apps/" + id + "/queue?user.name=alice";
    assertThat(Http.get(path).body()).isEqualTo("{\"queue\":\"root.a\"}");

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
