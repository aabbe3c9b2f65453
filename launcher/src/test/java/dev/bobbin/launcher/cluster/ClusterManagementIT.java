package dev.bobbin.launcher.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.launcher.Http;
import dev.bobbin.launcher.Main;
import dev.bobbin.launcher.cli.ClientContext;
import dev.bobbin.pg.EmbeddedPostgres;
import dev.bobbin.protocol.client.BobbinHttp;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster's management endpoints, health checks and {@code bobbin cluster} on two RM members
 * as real processes, with ACLs on and {@code admin} the only administrator: a member is not ready
 * until it has joined, both members and their shard regions are listed once it has, a caller
 * without credentials or without the admin ACL is refused, and an administrator's leave makes a
 * member leave.
 */
class ClusterManagementIT {
  private static final Duration REQUEST = RmProcess.REQUEST;
  private static final Duration START = Duration.ofSeconds(60);
  private static final String ADMIN = "admin";
  private static EmbeddedPostgres pg;
  private final List<RmProcess> members = new ArrayList<>();

  @BeforeAll
  static void startPostgres() {
    pg = EmbeddedPostgres.start();
  }

  @AfterAll
  static void stopPostgres() {
    if (pg != null) pg.close();
  }

  @AfterEach
  void stopMembers() {
    members.forEach(RmProcess::kill);
    RmProcess.keepLogs(members, "ClusterManagementIT");
  }

  @Test
  void aMemberIsReadyOnceJoinedAndTheClusterIsInspectedAndChangedByItsAdministrators(@TempDir Path dir)
      throws Exception {
    members.addAll(RmProcess.pair(dir, "bobbin.security.acl-enable = true\nbobbin.security.admin-acl = \"" + ADMIN
        + "\"\n", pg.createDatabase()));
    RmProcess rm1 = members.get(0);
    RmProcess rm2 = members.get(1);

    // rm-2 is not the first seed: it only joins, so alone it waits, alive and not ready.
    rm2.start();
    Http.await(START, "rm-2 to answer /alive", () -> alive(rm2));
    Http.Reply notReady = Http.get(rm2.url() + "/ready", REQUEST);
    assertThat(notReady.status()).as(notReady.body()).isEqualTo(503);
    assertThat(notReady.json().path("RemoteException").path("message").asText())
        .isEqualTo("This RM member is not ready: this member has not joined the cluster yet");

    rm1.start();
    Http.await(START, "both members to be ready", () -> Http.get(rm1.url() + "/ready", REQUEST).status() == 200
        && Http.get(rm2.url() + "/ready", REQUEST).status() == 200);
    assertThat(Http.get(rm2.url() + "/ready", REQUEST).body()).isEqualTo("{\"ready\":true}");
    assertThat(Http.get(rm2.url() + "/alive", REQUEST).body()).isEqualTo("{\"alive\":true}");

    JsonNode seen = Http.get(rm2.url() + "/cluster/members", REQUEST).json();
    Set<String> up = new TreeSet<>();
    seen.path("members").forEach(m -> {
      if (m.path("status").asText().equals("Up")) up.add(m.path("node").asText());
    });
    assertThat(up).containsExactlyInAnyOrder(rm1.clusterAddress(), rm2.clusterAddress());
    assertThat(seen.path("oldest").asText()).as("rm-1 formed the cluster").isEqualTo(rm1.clusterAddress());

    Http.await(Duration.ofSeconds(10), "every shard region to list both members", () -> {
      JsonNode regions = Http.get(rm2.url() + "/cluster/sharding", REQUEST).json().path("regions");
      if (regions.size() < 5) return false;
      for (JsonNode r : regions) if (r.path("members").size() != 2) return false;
      return true;
    });
    JsonNode sharding = Http.get(rm1.url() + "/cluster/sharding", REQUEST).json();
    assertThat(sharding.path("singletons").path("member").asText()).isEqualTo(rm1.clusterAddress());

    String rm1Name = rm1.clusterAddress().substring("pekko://".length());
    String rm2Name = rm2.clusterAddress().substring("pekko://".length());
    Run members = bobbin("cluster", "members", "--rm", rm2.url(), "--user", "alice");
    assertThat(members.code()).as(members.err()).isZero();
    // The oldest member runs the singletons; the leader is the member with the lowest address, rm-2.
    assertThat(members.out()).contains("Members as " + rm2Name + " sees them: 2")
        .containsPattern("(?m)^" + rm1Name.replace(".", "\\.") + " +Up +yes +- +singletons$")
        .containsPattern("(?m)^" + rm2Name.replace(".", "\\.") + " +Up +yes +- +leader$");
    Run shards = bobbin("cluster", "shards", "--rm", rm1.url(), "--user", "alice");
    assertThat(shards.code()).as(shards.err()).isZero();
    for (String region : List.of("Application", "Container", "Node", "Queue")) {
      assertThat(shards.out()).containsPattern("(?m)^" + region + " +" + rm1Name.replace(".", "\\.") + " +\\d+ +\\d+$")
          .containsPattern("(?m)^" + region + " +" + rm2Name.replace(".", "\\.") + " +\\d+ +\\d+$");
    }
    assertThat(shards.out()).contains("Singletons (the scheduler among them) run on: " + rm1Name);
    for (String line : (members.out() + shards.out()).split("\n")) assertThat(line.length()).as(line).isLessThanOrEqualTo(80);

    // No credentials: refused before anything is read. A user without the admin ACL: reads, no changes.
    Http.Reply anonymous = Http.sendAsIs(HttpRequest.newBuilder(URI.create(rm1.url() + "/cluster/members")).GET()
        .timeout(REQUEST).build());
    assertThat(anonymous.status()).isEqualTo(401);
    Run refused = bobbin("cluster", "leave", rm2Name, "--rm", rm1.url(), "--user", "alice");
    assertThat(refused.code()).isEqualTo(1);
    assertThat(refused.err()).contains("AccessControlException: User alice doesn't have permission to change the"
        + " cluster's membership");
    Run bad = bobbin("cluster", "down", "rm-2", "--rm", rm1.url(), "--user", ADMIN);
    assertThat(bad.code()).isEqualTo(64);
    assertThat(bad.err()).contains("Invalid member 'rm-2'");
    Run unknown = bobbin("cluster", "down", "127.0.0.1:1", "--rm", rm1.url(), "--user", ADMIN);
    assertThat(unknown.code()).isEqualTo(1);
    assertThat(unknown.err()).contains("No member 127.0.0.1:1 in the cluster");
    assertThat(rm2.process().isAlive()).as("refusals change nothing").isTrue();

    Run leave = bobbin("cluster", "leave", rm2Name, "--rm", rm1.url(), "--user", ADMIN);
    assertThat(leave.code()).as(leave.err()).isZero();
    assertThat(leave.out().strip()).isEqualTo("Leaving " + rm2.clusterAddress());
    assertThat(rm2.awaitExit(Duration.ofSeconds(30))).as("a member that left stops").isZero();
    Http.await(Duration.ofSeconds(10), "rm-1 to list itself alone", () ->
        Http.get(rm1.url() + "/cluster/members", REQUEST).json().path("members").size() == 1);
    assertThat(Http.get(rm1.url() + "/ready", REQUEST).status()).isEqualTo(200);
  }

  private static boolean alive(RmProcess rm) {
    if (!rm.process().isAlive()) throw new IllegalStateException(rm.name + " exited; its log ends:\n" + rm.tail(40));
    try {
      return Http.get(rm.url() + "/alive", REQUEST).status() == 200;
    } catch (Exception e) {
      return false;
    }
  }

  private record Run(int code, String out, String err) {}

  private static Run bobbin(String... argv) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    ClientContext context = new ClientContext(null, null, "nobody", "", Duration.ZERO, Duration.ofSeconds(5),
        BobbinHttp.builder().connectTimeout(Duration.ofSeconds(2)).requestTimeout(Duration.ofSeconds(10)).build());
    int code;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      code = Main.run(List.of(argv), o, e, context);
    }
    return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
