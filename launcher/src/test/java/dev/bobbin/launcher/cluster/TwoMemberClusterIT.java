package dev.bobbin.launcher.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.launcher.Http;
import dev.bobbin.pg.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two RM members as real processes on one PostgreSQL journal: applications submitted through one
 * are served by the other, and survive the first one's SIGTERM (a graceful leave) or kill -9
 * (downed by the split-brain resolver), after which it is restarted on the same ports and joins
 * again.
 *
 * <p>Which member fails is chosen, not left to chance. rm-1 starts first, so it is the oldest
 * member and hosts the cluster singletons (the scheduler and the shard coordinator): its failure is
 * the slowest case, and the one in which a new submission needs the scheduler to move. With two
 * members a kill -9 leaves one against one, and keep-majority then keeps the side with the lowest
 * address (host, then port); rm-1 therefore gets the higher cluster port, so the survivor, rm-2,
 * downs rm-1 instead of itself. (Were rm-1 the lower address, rm-2 would down itself and the whole
 * cluster would be gone: the case for running three members in production.)
 */
class TwoMemberClusterIT {
  private static final Duration REQUEST = RmProcess.REQUEST;
  private static final Duration START = Duration.ofSeconds(60);
  /** A new cluster forms within seed-node-timeout (15 s): a seed node that asked too early asks again after it. */
  private static final Duration JOIN = Duration.ofSeconds(45);
  /** Far above the failover targets (3 s after SIGTERM, 10 s after kill -9): the test checks that it works. */
  private static final Duration FAILOVER_LIMIT = Duration.ofSeconds(40);
  private static final int APPS = 4;

  private static EmbeddedPostgres pg;
  private final List<RmProcess> members = new ArrayList<>();
  private EmbeddedPostgres.Database journal;
  private LocalTime faultAt;

  @BeforeAll
  static void startPostgres() {
    pg = EmbeddedPostgres.start();
  }

  @AfterAll
  static void stopPostgres() {
    if (pg != null) pg.close();
  }

  @AfterEach
  void stopMembers(TestInfo test) {
    members.forEach(RmProcess::kill);
    RmProcess.keepLogs(members, test.getTestMethod().map(m -> m.getName()).orElse("test"));
  }

  @Test
  void sigtermOfTheOldestMemberHandsOverToTheOther(@TempDir Path dir) throws Exception {
    startCluster(dir);
    RmProcess rm1 = members.get(0);
    RmProcess rm2 = members.get(1);
    List<String> apps = submitThrough(rm1, rm2);

    long offset = rm2.logLength();
    long fault = System.nanoTime();
    faultAt = LocalTime.now();
    CompletableFuture<Long> exited = rm1.process().onExit().thenApply(p -> System.nanoTime());
    rm1.process().destroy();
    Failover f = measureFailover(rm2, apps, fault);
    int status = rm1.awaitExit(Duration.ofSeconds(30));
    report("SIGTERM", rm1, rm2, f, 3, offset);
    System.out.println("TwoMemberClusterIT: rm-1 left the cluster and exited with " + status + " after "
        + (exited.get() - fault) / 1_000_000 + " ms");
    assertThat(status).as("rm-1 ended by SIGTERM, after a graceful leave").isEqualTo(143);
    assertThat(rm2.logSince(offset)).as("a graceful leave downs nobody").doesNotContain("SBR took decision");
    assertThat(fencedMembers()).as("a graceful leave hands its leases over: nobody is fenced").isEmpty();

    rejoin(rm1, rm2, apps);
  }

  @Test
  void killNineOfTheOldestMemberIsDownedAndTheOtherTakesOver(@TempDir Path dir) throws Exception {
    startCluster(dir);
    RmProcess rm1 = members.get(0);
    RmProcess rm2 = members.get(1);
    List<String> apps = submitThrough(rm1, rm2);

    long offset = rm2.logLength();
    long fault = System.nanoTime();
    faultAt = LocalTime.now();
    rm1.process().destroyForcibly();
    Failover f = measureFailover(rm2, apps, fault);
    report("kill -9", rm1, rm2, f, 10, offset);
    assertThat(rm1.awaitExit(Duration.ofSeconds(10))).as("killed by SIGKILL").isEqualTo(137);
    assertThat(rm2.logSince(offset)).as("rm-2, the lowest address, keeps itself and downs rm-1")
        .contains("SBR took decision DownUnreachable and is downing [" + rm1.clusterAddress() + "]");
    String rm1Writer = rm1.clusterAddress().substring("pekko://".length()) + "#";
    assertThat(fencedMembers()).as("rm-2 took rm-1's journal leases as it downed it")
        .singleElement().satisfies(m -> assertThat(m).startsWith(rm1Writer));
    assertThat(count("SELECT count(*) FROM event_journal WHERE writer LIKE '" + rm1Writer + "%'"))
        .as("rm-1's events name it as their writer").isPositive();
    assertThat(count("SELECT count(*) FROM event_journal e JOIN journal_fenced_member f ON e.writer = f.member"
        + " WHERE e.written_at > f.fenced_at")).as("nothing from rm-1 was written after it was fenced").isZero();

    rejoin(rm1, rm2, apps);
  }

  /** A fresh journal database, the shared configuration, rm-1 then rm-2; returns once both are members. */
  private void startCluster(Path dir) throws Exception {
    journal = pg.createDatabase();
    members.addAll(RmProcess.pair(dir, "", journal));
    RmProcess.startInOrder(members.get(0), members.get(1), START, JOIN);
  }

  /**
   * Submits {@link #APPS} applications through {@code in}; each is read back through {@code out}.
   * The first one's id comes from {@code out}: a member takes a submission under an id another
   * member issued, as clients that fail over between new-application and submit need.
   */
  private static List<String> submitThrough(RmProcess in, RmProcess out) throws Exception {
    List<String> apps = new ArrayList<>();
    for (int i = 0; i < APPS; i++) {
      String id = newApplicationId(i == 0 ? out : in);
      Http.Reply r = Http.post(in.api() + "/apps", body(id), REQUEST);
      assertThat(r.status()).as(r.body()).isEqualTo(202);
      apps.add(id);
    }
    for (String id : apps) {
      JsonNode app = Http.get(out.api() + "/apps/" + id, REQUEST).json().path("app");
      assertThat(app.path("id").asText()).isEqualTo(id);
      assertThat(app.path("state").asText()).as("no NodeManager, so it waits").isEqualTo("ACCEPTED");
    }
    return apps;
  }

  private List<String> fencedMembers() throws SQLException {
    try (Connection c = DriverManager.getConnection(journal.jdbcUrl(), journal.user(), journal.password());
        ResultSet rs = c.createStatement().executeQuery("SELECT member FROM journal_fenced_member")) {
      List<String> members = new ArrayList<>();
      while (rs.next()) members.add(rs.getString(1));
      return members;
    }
  }

  private long count(String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(journal.jdbcUrl(), journal.user(), journal.password());
        ResultSet rs = c.createStatement().executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Milliseconds after the fault: all applications answered, a submission accepted, both. */
  private record Failover(long appsMs, long submitMs) {
    long ms() {
      return Math.max(appsMs, submitMs);
    }
  }

  /**
   * From the fault until the survivor has answered for every application (once each) and accepted
   * a new submission, as the chaos suite measures a failover; polls every 100 ms.
   */
  private static Failover measureFailover(RmProcess survivor, List<String> apps, long faultNanos) throws Exception {
    Set<String> pending = new LinkedHashSet<>(apps);
    long appsMs = -1;
    long submitMs = -1;
    long deadline = faultNanos + FAILOVER_LIMIT.toNanos();
    while (System.nanoTime() < deadline) {
      for (String id : new ArrayList<>(pending)) {
        if (answers(survivor.api() + "/apps/" + id)) pending.remove(id);
      }
      if (pending.isEmpty() && appsMs < 0) appsMs = (System.nanoTime() - faultNanos) / 1_000_000;
      if (submitMs < 0 && submitOnce(survivor)) submitMs = (System.nanoTime() - faultNanos) / 1_000_000;
      if (appsMs >= 0 && submitMs >= 0) return new Failover(appsMs, submitMs);
      if (!survivor.process().isAlive()) {
        throw new AssertionError(survivor.name + " died during the failover; its log ends:\n" + survivor.tail(60));
      }
      java.util.concurrent.locks.LockSupport.parkNanos(100_000_000L);
    }
    throw new AssertionError(survivor.name + " did not take over within " + FAILOVER_LIMIT.toSeconds() + " s: "
        + (pending.isEmpty() ? "" : "no answer for " + pending + "; ") + (submitMs >= 0 ? "" : "no submission accepted; ")
        + "its log ends:\n" + survivor.tail(60));
  }

  private static boolean answers(String url) {
    try {
      return Http.get(url, REQUEST).status() == 200;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (Exception e) {
      return false;
    }
  }

  /** A new application id and its submission, both through {@code rm}; true when it answered 202. */
  private static boolean submitOnce(RmProcess rm) {
    try {
      Http.Reply id = Http.post(rm.api() + "/apps/new-application", "", REQUEST);
      if (id.status() != 200) return false;
      return Http.post(rm.api() + "/apps", body(id.json().path("application-id").asText()), REQUEST).status() == 202;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (Exception e) {
      return false;
    }
  }

  /**
   * Not a failover measurement: the first id a member issues after the cluster formed waits for the
   * home of its Application entity's shard, which on a loaded machine can take longer than
   * {@link #REQUEST}.
   */
  private static String newApplicationId(RmProcess rm) throws Exception {
    return Http.post(rm.api() + "/apps/new-application", "", JOIN).json().path("application-id").asText();
  }

  /** The timestamp part of {@code application_<stamp>_<sequence>}. */
  private static String stamp(String applicationId) {
    return applicationId.split("_")[1];
  }

  /** rm-1 again, on its ports and data directory: it joins rm-2's cluster and serves everything. */
  private static void rejoin(RmProcess rm1, RmProcess rm2, List<String> apps) throws Exception {
    long offset1 = rm1.logLength();
    long offset2 = rm2.logLength();
    long t0 = System.nanoTime();
    rm1.start();
    rm1.awaitServing(START);
    rm1.awaitLog(offset1, "2 member(s) up", JOIN);
    rm2.awaitLog(offset2, "2 member(s) up", JOIN);
    for (String id : apps) {
      Http.await(Duration.ofSeconds(20), id + " through the restarted rm-1",
          () -> Http.get(rm1.api() + "/apps/" + id, REQUEST).status() == 200);
    }
    Http.await(Duration.ofSeconds(20), "a submission through the restarted rm-1", () -> submitOnce(rm1));
    // The last of the applications took its id from rm-1's first incarnation (submitThrough).
    List<String> stamps = List.of(stamp(apps.get(APPS - 1)), stamp(newApplicationId(rm1)), stamp(newApplicationId(rm2)));
    assertThat(new java.util.HashSet<>(stamps)).as("each member incarnation mints ids under its own stamp: " + stamps)
        .hasSize(3);
    System.out.println("TwoMemberClusterIT: rm-1 restarted, rejoined and served again after "
        + (System.nanoTime() - t0) / 1_000_000 + " ms");
  }

  private void report(String fault, RmProcess failed, RmProcess survivor, Failover f, int targetSeconds, long offset)
      throws IOException {
    System.out.println("TwoMemberClusterIT: " + fault + " of " + failed.name + " (oldest member: scheduler and shard"
        + " coordinator): failover " + f.ms() + " ms (p99 target: " + targetSeconds + " s): " + survivor.name
        + " answered for all " + APPS + " applications after " + f.appsMs() + " ms and accepted a new one after "
        + f.submitMs() + " ms; fault at " + faultAt);
    String timeline = survivor.logSince(offset).lines()
        .filter(l -> l.contains("Cluster: ") || l.contains("SBR ") || l.contains("RM member"))
        .map(l -> "    " + (l.length() > 240 ? l.substring(0, 240) + " ..." : l))
        .collect(Collectors.joining("\n"));
    System.out.println("  " + survivor.name + "'s view:\n" + timeline);
  }

  private static String body(String id) {
    return """
        {"application-id":"%s","am-container-spec":{"commands":{"command":"sleep 1"}},
         "resource":{"memory":1024,"vCores":1}}""".formatted(id);
  }
}
