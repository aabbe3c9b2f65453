package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.pg.EmbeddedPostgres;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An RM member on a real PostgreSQL journal whose database freezes (every PostgreSQL process
 * SIGSTOPped, as a hung host or a stalled disk looks to its clients): writes are refused at once
 * with a 503 RemoteException that names the journal, reads of live state go on, {@code /ready}
 * says why the member is not ready, and once the database runs again the member takes submissions
 * within seconds, also after writes caught in the freeze opened the journal's circuit breaker.
 */
class JournalOutageIT {
  /** bobbin.rm.ask-timeout: what a request waits for an entity at most; a refusal must come well before. */
  private static final Duration ASK_TIMEOUT = Duration.ofSeconds(10);
  /** More than the journal's circuit breaker's max-failures (10). */
  private static final int IN_FLIGHT = 12;
  private static EmbeddedPostgres pg;
  private RmMember rm;
  private List<ProcessHandle> frozen = List.of();

  @BeforeAll
  static void startPostgres() {
    pg = EmbeddedPostgres.start();
  }

  @AfterAll
  static void stopPostgres() {
    if (pg != null) pg.close();
  }

  @AfterEach
  void stop() throws Exception {
    thaw();
    if (rm != null) rm.close();
  }

  @Test
  void aFrozenJournalIsRefusedAtOnceAndServedAgainSecondsAfterItReturns(@TempDir Path dir) throws Exception {
    EmbeddedPostgres.Database db = pg.createDatabase();
    rm = RmMember.start(ConfigFactory.parseMap(Map.of(
        "bobbin.data-dir", dir.resolve("rm").toString(),
        "bobbin.rm.http-port", RestApiIT.freePort(),
        "pekko.remote.artery.canonical.port", RestApiIT.freePort(),
        "bobbin.persistence.journal", "postgres",
        "bobbin.persistence.postgres.url", db.jdbcUrl(),
        "bobbin.persistence.postgres.user", db.user(),
        "bobbin.persistence.postgres.password", db.password())));
    String api = rm.url() + "/ws/v1/cluster";
    Http.await(Duration.ofSeconds(30), "the member to be ready", () -> Http.get(rm.url() + "/ready", ASK_TIMEOUT).status() == 200);
    String before = submit(api);
    assertThat(Http.get(api + "/apps/" + before, ASK_TIMEOUT).json().path("app").path("state").asText()).isEqualTo("ACCEPTED");

    frozen = postgresProcesses(pg.port());
    Signals.send("STOP", frozen);
    // Writes already past the gate when the database froze: their journal calls hang until the
    // circuit breaker's call-timeout fails them, enough of them to open it.
    ExecutorService callers = Executors.newFixedThreadPool(IN_FLIGHT);
    List<Future<Http.Reply>> inFlight = new ArrayList<>();
    for (int i = 0; i < IN_FLIGHT; i++) {
      inFlight.add(callers.submit(() -> Http.post(api + "/apps/new-application", "", ASK_TIMEOUT.plusSeconds(5))));
    }
    // About interval + timeout (2 s) on an idle machine; a loaded one may take several more.
    Http.await(Duration.ofSeconds(10), "/ready to say the journal is away",
        () -> Http.get(rm.url() + "/ready", ASK_TIMEOUT).status() == 503);
    JsonNode notReady = Http.get(rm.url() + "/ready", ASK_TIMEOUT).json().path("RemoteException");
    assertThat(notReady.path("message").asText()).startsWith("This RM member is not ready: the journal's database");

    // Bounded by the ask timeout: a request that hung up to it would fail here with a timeout.
    long start = System.nanoTime();
    Http.Reply refused = Http.post(api + "/apps/new-application", "", ASK_TIMEOUT);
    long refusedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertThat(refused.status()).as(refused.body()).isEqualTo(503);
    JsonNode e = refused.json().path("RemoteException");
    assertThat(e.path("javaClassName").asText()).isEqualTo("org.apache.hadoop.ipc.RetriableException");
    assertThat(e.path("message").asText()).startsWith("This RM member cannot write now: the journal's database");
    assertThat(Http.post(api + "/apps", body(before), ASK_TIMEOUT).status()).as("a submission").isEqualTo(503);
    // Live state is in memory: the cluster's description, the scheduler, the nodes, the running application.
    for (String read : List.of("/info", "/scheduler", "/nodes", "/apps/" + before)) {
      assertThat(Http.get(api + read, ASK_TIMEOUT).status()).as(read).isEqualTo(200);
    }

    for (Future<Http.Reply> f : inFlight) {
      Http.Reply r = f.get();
      assertThat(r.status()).as(r.body()).isEqualTo(503);
      assertThat(r.json().path("RemoteException").path("exception").asText()).isEqualTo("RetriableException");
    }
    callers.shutdown();

    thaw();
    long thawed = System.nanoTime();
    String[] after = new String[1];
    Http.await(Duration.ofSeconds(10), "a submission to be taken again", () -> (after[0] = trySubmit(api)) != null);
    System.out.println("JournalOutageIT: refused a write in " + refusedMs + " ms; took a submission "
        + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - thawed) + " ms after the database ran again");
    assertThat(Http.get(rm.url() + "/ready", ASK_TIMEOUT).status()).isEqualTo(200);
    assertThat(Http.get(api + "/apps/" + after[0], ASK_TIMEOUT).json().path("app").path("state").asText())
        .isEqualTo("ACCEPTED");
  }

  /** A new application id and its submission; null unless both were taken. */
  private static String trySubmit(String api) throws Exception {
    Http.Reply id = Http.post(api + "/apps/new-application", "", Duration.ofSeconds(5));
    if (id.status() != 200) return null;
    String appId = id.json().path("application-id").asText();
    return Http.post(api + "/apps", body(appId), Duration.ofSeconds(5)).status() == 202 ? appId : null;
  }

  /** A new application id and its submission; fails unless both are taken. */
  private static String submit(String api) throws Exception {
    Http.Reply id = Http.post(api + "/apps/new-application", "", Duration.ofSeconds(5));
    assertThat(id.status()).as(id.body()).isEqualTo(200);
    String appId = id.json().path("application-id").asText();
    Http.Reply submitted = Http.post(api + "/apps", body(appId), Duration.ofSeconds(5));
    assertThat(submitted.status()).as(submitted.body()).isEqualTo(202);
    return appId;
  }

  private static String body(String id) {
    return """
        {"application-id":"%s","am-container-spec":{"commands":{"command":"sleep 1"}},
         "resource":{"memory":1024,"vCores":1}}""".formatted(id);
  }

  /** The server listening on {@code port} and every process it started (its backends and workers). */
  private static List<ProcessHandle> postgresProcesses(int port) {
    List<ProcessHandle> all = new ArrayList<>();
    ProcessHandle.allProcesses().filter(p -> p.info().command().orElse("").endsWith("/postgres")
            && List.of(p.info().arguments().orElse(new String[0])).contains(Integer.toString(port)))
        .forEach(server -> {
          all.add(server);
          all.addAll(server.descendants().toList());
        });
    assertThat(all).as("PostgreSQL's processes on port " + port).isNotEmpty();
    return all;
  }

  /** Resumes what was frozen and is still there (a backend may have ended since). */
  private void thaw() throws Exception {
    Signals.send("CONT", frozen.stream().filter(ProcessHandle::isAlive).toList());
    frozen = List.of();
  }
}
