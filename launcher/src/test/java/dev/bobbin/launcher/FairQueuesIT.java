package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Fair queues from Hadoop's allocation file: placement, the scheduler view, and refreshing at run time. */
class FairQueuesIT {
  private RmMember rm;

  @AfterEach
  void stop() {
    if (rm != null) rm.close();
  }

  private static String allocations(String extraQueue) {
    return """
        <?xml version="1.0"?>
        <allocations>
          <queue name="analytics" type="parent">
            <weight>3</weight>
            <queue name="daily"><maxRunningApps>5</maxRunningApps></queue>
          </queue>
          <queue name="adhoc"><schedulingPolicy>fifo</schedulingPolicy></queue>
          %s
          <queuePlacementPolicy>
            <rule name="specified" create="false"/>
            <rule name="reject"/>
          </queuePlacementPolicy>
        </allocations>
        """.formatted(extraQueue);
  }

  private static List<String> queueNames(JsonNode queue) {
    List<String> out = new ArrayList<>();
    out.add(queue.path("queueName").asText());
    for (JsonNode c : queue.path("childQueues").path("queue")) out.addAll(queueNames(c));
    return out;
  }

  private List<String> queues(String base) throws Exception {
    return queueNames(Http.get(base + "/scheduler").json().path("scheduler").path("schedulerInfo").path("rootQueue"));
  }

  @Test
  void placementRefreshAndAnInvalidFileThatChangesNothing(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("fair-scheduler.xml");
    Files.writeString(file, allocations(""));
    rm = RmMember.start(ConfigFactory.parseMap(Map.of(
        "bobbin.data-dir", dir.resolve("rm").toString(),
        "bobbin.rm.http-port", RestApiIT.freePort(),
        "pekko.remote.artery.canonical.port", RestApiIT.freePort(),
        "bobbin.scheduler.policy", "fair",
        "bobbin.scheduler.fair.allocation-file", file.toString())));
    String base = rm.url() + "/ws/v1/cluster";
    assertThat(queues(base)).containsExactly("root", "root.analytics", "root.analytics.daily", "root.adhoc");
    JsonNode daily = Http.get(base + "/scheduler").json().path("scheduler").path("schedulerInfo").path("rootQueue")
        .path("childQueues").path("queue").get(0).path("childQueues").path("queue").get(0);
    assertThat(daily.path("type").asText()).isEqualTo("fairSchedulerLeafQueueInfo");
    assertThat(daily.path("maxApps").asInt()).isEqualTo(5);

    // The placement policy only takes existing queues and rejects the rest.
    assertThat(submit(base, "analytics.daily").status()).isEqualTo(202);
    Http.Reply rejected = submit(base, "nowhere");
    assertThat(rejected.status()).isEqualTo(400);
    assertThat(rejected.json().path("RemoteException").path("message").asText()).contains("rejected by queue placement");

    Files.writeString(file, allocations("<queue name=\"reports\"><weight>2</weight></queue>"));
    Http.Reply refreshed = Http.put(base + "/admin/refresh-queues", "");
    assertThat(refreshed.status()).as(refreshed.body()).isEqualTo(200);
    assertThat(queues(base)).contains("root.reports");
    assertThat(submit(base, "reports").status()).isEqualTo(202);

    Files.writeString(file, allocations("<queue name=\"broken\"><weight>heavy</weight></queue>"));
    Http.Reply bad = Http.put(base + "/admin/refresh-queues", "");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.json().path("RemoteException").path("message").asText()).contains("broken").contains("weight")
        .contains("heavy");
    assertThat(queues(base)).contains("root.reports").doesNotContain("root.broken");
  }

  @Test
  void queuesPlacementMakesAreLeavesOrParentsNeverBoth(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("fair-scheduler.xml");
    Files.writeString(file, """
        <?xml version="1.0"?>
        <allocations>
          <queuePlacementPolicy>
            <rule name="specified" create="true"/>
            <rule name="nestedUserQueue"><rule name="primaryGroup" create="true"/></rule>
          </queuePlacementPolicy>
        </allocations>
        """);
    rm = RmMember.start(ConfigFactory.parseMap(Map.of(
        "bobbin.data-dir", dir.resolve("rm").toString(),
        "bobbin.rm.http-port", RestApiIT.freePort(),
        "pekko.remote.artery.canonical.port", RestApiIT.freePort(),
        "bobbin.scheduler.policy", "fair",
        "bobbin.scheduler.fair.allocation-file", file.toString(),
        // carol's primary group is carol, as on a host that gives each user a group of their own.
        "bobbin.security.groups.static-mapping.carol", List.of("carol"))));
    String base = rm.url() + "/ws/v1/cluster";

    // root.team becomes a parent, and so takes no applications of its own.
    assertThat(submit(base, "team.alice").status()).isEqualTo(202);
    Http.Reply toParent = submit(base, "team");
    assertThat(toParent.status()).isEqualTo(400);
    assertThat(toParent.json().path("RemoteException").path("message").asText())
        .endsWith("Queue root.team is a parent queue; applications go to leaf queues");

    // root.carol becomes a leaf holding an application: carol's own nested queue cannot go under it.
    assertThat(submit(base, "carol").status()).isEqualTo(202);
    Http.Reply nested = submit(base, "");
    assertThat(nested.status()).isEqualTo(400);
    assertThat(nested.json().path("RemoteException").path("message").asText())
        .contains("Application rejected by queue placement: cannot place in root.carol.carol")
        .contains("root.carol is a leaf queue that holds applications");
    // The scheduler hears of an accepted application a moment after its submission was answered.
    Http.await(Duration.ofSeconds(10), "the placed queues in the scheduler view",
        () -> queues(base).containsAll(List.of("root.team", "root.team.alice", "root.carol")));
    assertThat(queues(base)).doesNotContain("root.carol.carol");
  }

  private static Http.Reply submit(String base, String queue) throws Exception {
    String id = Http.post(base + "/apps/new-application?user.name=carol", "").json().path("application-id").asText();
    return Http.post(base + "/apps?user.name=carol", """
        {"application-id":"%s","queue":"%s","am-container-spec":{"commands":{"command":"sleep 1"}},
         "resource":{"memory":1024,"vCores":1}}""".formatted(id, queue));
  }
}
