package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.am.shell.ShellAmSpec;
import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.WireJson;
import java.nio.file.Files;
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
 * The capacity policy on real processes: {@code bobbin rm --scheduler capacity --capacity-file} with
 * Hadoop's capacity-scheduler.xml, a NodeManager, a mapped user's application running in its queue,
 * a queue stopped by a refresh that refuses submissions and drains, and a broken file refused.
 */
class CapacityQueuesIT {
  private CapacityRm rm;

  @AfterEach
  void stop() throws Exception {
    if (rm != null) rm.close();
  }

  private static String capacityScheduler(String... more) {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    List<String> properties = new ArrayList<>(List.of(
        "yarn.scheduler.capacity.root.queues", "a,b",
        "yarn.scheduler.capacity.root.a.capacity", "70",
        "yarn.scheduler.capacity.root.b.capacity", "30",
        "yarn.scheduler.capacity.queue-mappings", "u:carol:b"));
    properties.addAll(List.of(more));
    for (int i = 0; i < properties.size(); i += 2) {
      xml.append("  <property><name>").append(properties.get(i)).append("</name><value>").append(properties.get(i + 1))
          .append("</value></property>\n");
    }
    return xml.append("</configuration>\n").toString();
  }

  @Test
  void capacityQueuesFromHadoopsFileMappingsStoppingAndRefreshes(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("capacity-scheduler.xml");
    Files.writeString(file, capacityScheduler());
    String base = startRm(dir, file);

    // The queues as Hadoop shows them: leaves first, percentages of the parent and of the cluster.
    JsonNode b = queue(base, "root.b");
    assertThat(b.path("type").asText()).isEqualTo("capacitySchedulerLeafQueueInfo");
    assertThat(b.path("capacity").floatValue()).isCloseTo(30f, within(0.001f));
    assertThat(b.path("absoluteCapacity").floatValue()).isCloseTo(30f, within(0.001f));
    assertThat(b.path("maxCapacity").floatValue()).isEqualTo(100f);
    assertThat(queue(base, "root.a").path("capacity").floatValue()).isCloseTo(70f, within(0.001f));

    rm.startNode(dir);

    // carol names no queue; u:carol:b maps her to b, where her AM and worker are placed.
    String carols = submit(base, "carol", null);
    assertThat(app(base, carols).path("queue").asText()).isEqualTo("root.b");
    Http.await(Duration.ofSeconds(60), "carol's AM and worker", () -> app(base, carols).path("allocatedMB").asLong() == 2048);
    JsonNode users = queue(base, "root.b").path("users").path("user");
    assertThat(users.get(0).path("username").asText()).isEqualTo("carol");
    assertThat(users.get(0).path("userResourceLimit").path("memory").asLong()).isPositive();

    // b's AMs may hold 10 % of its 30 % of 8 GB, rounded up to 1 GB: carol's. dave's application
    // waits, and its report says why in Hadoop's words.
    String daves = submit(base, "dave", "b");
    Http.await(Duration.ofSeconds(10), "dave's application held by b's AM limit", () ->
        app(base, daves).path("diagnostics").asText().startsWith("Application is added to the scheduler and is not yet"
            + " activated. Queue's AM resource limit exceeded."));
    assertThat(app(base, daves).path("state").asText()).isEqualTo("ACCEPTED");
    assertThat(queue(base, "root.b").path("numPendingApplications").asInt()).isEqualTo(1);
    assertThat(Http.put(base + "/apps/" + daves + "/state", "{\"state\":\"KILLED\"}").status()).isEqualTo(200);

    // A refresh stops b: it refuses a new submission and creates nothing; carol's application drains.
    Files.writeString(file, capacityScheduler("yarn.scheduler.capacity.root.b.state", "STOPPED"));
    Http.Reply stopped = Http.put(base + "/admin/refresh-queues", "");
    assertThat(stopped.status()).as(stopped.body()).isEqualTo(200);
    String refusedId = Http.post(base + "/apps/new-application?user.name=dave", "").json().path("application-id").asText();
    Http.Reply refused = Http.post(base + "/apps?user.name=dave", body(refusedId, "b", "true"));
    assertThat(refused.status()).isEqualTo(400);
    assertThat(refused.json().path("RemoteException").path("message").asText()).contains("b is STOPPED");
    assertThat(Http.get(base + "/apps/" + refusedId).status()).isEqualTo(404);
    Http.await(Duration.ofSeconds(60), "carol's application to finish", () ->
        app(base, carols).path("state").asText().equals("FINISHED"));
    assertThat(app(base, carols).path("finalStatus").asText()).isEqualTo("SUCCEEDED");
    Http.await(Duration.ofSeconds(10), "b drained", () -> queue(base, "root.b").path("state").asText().equals("STOPPED"));

    // A broken file (a's and b's capacities add up to 110 %) is refused, naming the key; the running queues stay.
    Files.writeString(file, capacityScheduler("yarn.scheduler.capacity.root.b.state", "STOPPED",
        "yarn.scheduler.capacity.root.a.capacity", "80"));
    Http.Reply broken = Http.put(base + "/admin/refresh-queues", "");
    assertThat(broken.status()).isEqualTo(400);
    assertThat(broken.json().path("RemoteException").path("message").asText())
        .contains("yarn.scheduler.capacity.root.queues").contains("sum to 110");
    assertThat(queue(base, "root.a").path("capacity").floatValue()).isCloseTo(70f, within(0.001f));
    assertThat(queue(base, "root.b").path("state").asText()).isEqualTo("STOPPED");
  }

  /** The RM on {@code file}, kept for the teardown; its API's base URL. */
  private String startRm(Path dir, Path file) throws Exception {
    rm = CapacityRm.start(dir, file);
    return rm.base;
  }

  /**
   * The scheduler-wide maximum-applications counts every application of the cluster, whichever
   * queue it is in: with 2, a third submission is refused though each queue may hold 10, and
   * creates nothing; once an application ends, a new one is admitted.
   */
  @Test
  void theSchedulerWideMaximumApplicationsCountsTheWholeCluster(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("capacity-scheduler.xml");
    Files.writeString(file, capacityScheduler("yarn.scheduler.capacity.maximum-applications", "2",
        "yarn.scheduler.capacity.root.a.maximum-applications", "10",
        "yarn.scheduler.capacity.root.b.maximum-applications", "10"));
    String base = startRm(dir, file);
    // No NodeManager: the applications wait ACCEPTED, and count as Hadoop counts pending ones.
    String first = submitAs(base, "dave", "a", "sleep 60");
    String second = submitAs(base, "erin", "b", "sleep 60");
    String refusedId = Http.post(base + "/apps/new-application?user.name=dave", "").json().path("application-id").asText();
    Http.Reply refused = Http.post(base + "/apps?user.name=dave", body(refusedId, "a", "sleep 60"));
    assertThat(refused.status()).isEqualTo(400);
    assertThat(refused.json().path("RemoteException").path("message").asText())
        .contains("Maximum system application limit reached");
    assertThat(Http.get(base + "/apps/" + refusedId).status()).isEqualTo(404);
    assertThat(queue(base, "root.a").path("numApplications").asInt()).isEqualTo(1);

    assertThat(Http.put(base + "/apps/" + first + "/state", "{\"state\":\"KILLED\"}").status()).isEqualTo(200);
    Http.await(Duration.ofSeconds(30), "a submission admitted once an application ended", () -> {
      String id = Http.post(base + "/apps/new-application?user.name=dave", "").json().path("application-id").asText();
      return Http.post(base + "/apps?user.name=dave", body(id, "a", "sleep 60")).status() == 202;
    });
    assertThat(app(base, second).path("state").asText()).isEqualTo("ACCEPTED");
  }

  private static String submitAs(String base, String user, String queue, String shell) throws Exception {
    String id = Http.post(base + "/apps/new-application?user.name=" + user, "").json().path("application-id").asText();
    Http.Reply r = Http.post(base + "/apps?user.name=" + user, body(id, queue, shell));
    assertThat(r.status()).as(r.body()).isEqualTo(202);
    return id;
  }

  private static JsonNode app(String base, String id) throws Exception {
    return Http.get(base + "/apps/" + id).json().path("app");
  }

  static JsonNode queue(String base, String path) throws Exception {
    JsonNode info = Http.get(base + "/scheduler").json().path("scheduler").path("schedulerInfo");
    assertThat(info.path("type").asText()).isEqualTo("capacityScheduler");
    for (JsonNode q : info.path("queues").path("queue")) {
      if (q.path("queuePath").asText().equals(path)) return q;
    }
    throw new AssertionError("no queue " + path + " in " + info);
  }

  /** An application whose AM runs one worker of 1 GB sleeping a moment. */
  private static String submit(String base, String user, String queue) throws Exception {
    String id = Http.post(base + "/apps/new-application?user.name=" + user, "").json().path("application-id").asText();
    Http.Reply r = Http.post(base + "/apps?user.name=" + user, body(id, queue, "sleep 3"));
    assertThat(r.status()).as(r.body()).isEqualTo(202);
    return id;
  }

  static String body(String id, String queue, String shell) throws Exception {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("application-id", id);
    if (queue != null) body.put("queue", queue);
    body.put("resource", new Resource(1024, 1));
    body.put("am-container-spec", Map.of("commands", Map.of("command",
        ShellAmSpec.commands(System.getProperty("java.class.path"), shell, 1, new Resource(1024, 1), 0))));
    return WireJson.mapper().writeValueAsString(body);
  }
}
