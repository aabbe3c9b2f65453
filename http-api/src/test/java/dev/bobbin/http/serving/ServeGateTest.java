package dev.bobbin.http.serving;

import static org.apache.pekko.http.javadsl.server.Directives.complete;
import static org.apache.pekko.http.javadsl.server.Directives.concat;
import static org.apache.pekko.http.javadsl.server.Directives.get;
import static org.apache.pekko.http.javadsl.server.Directives.path;
import static org.apache.pekko.http.javadsl.server.Directives.post;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.protocol.WireJson;
import dev.bobbin.protocol.WirePaths;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import com.typesafe.config.ConfigFactory;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.apache.pekko.http.javadsl.server.PathMatchers;
import org.apache.pekko.http.javadsl.server.Route;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The gate and the health checks in front of a real server, fed the standing, journal health and
 * shard regions a test sets.
 */
class ServeGateTest {
  private static final Address SELF = new Address("pekko", "bobbin", "127.0.0.1", 2553);
  private static final Address OTHER1 = new Address("pekko", "bobbin", "127.0.0.1", 2551);
  private static final Address OTHER2 = new Address("pekko", "bobbin", "127.0.0.1", 2552);
  private static final ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "serve-gate-test",
      ConfigFactory.parseString("""
          pekko.actor.provider = cluster
          pekko.remote.artery.canonical.port = 0
          pekko.management.health-checks.readiness-checks {
            cluster-membership = ""
            bobbin-member = "dev.bobbin.http.serving.MemberReadinessCheck"
          }
          pekko.management.health-checks.liveness-checks.bobbin-member = "dev.bobbin.http.serving.MemberLivenessCheck"
          """).withFallback(ConfigFactory.load()));
  private static final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private static final AtomicReference<Standing> standing = new AtomicReference<>();
  private static final AtomicReference<JournalHealth.Status> journal = new AtomicReference<>();
  private static final AtomicReference<List<String>> regionsDown = new AtomicReference<>();
  private static final AtomicInteger reached = new AtomicInteger();
  private static ServerBinding binding;
  private static String base;

  @BeforeAll
  static void bind() throws Exception {
    Route inner = concat(path("apps", () -> concat(
        get(() -> {
          reached.incrementAndGet();
          return complete("[]");
        }),
        post(() -> {
          reached.incrementAndGet();
          return complete("created");
        }))),
        path(PathMatchers.separateOnSlashes(WirePaths.NM_HEARTBEAT.substring(1)), () -> post(() -> complete("beat"))),
        path(PathMatchers.separateOnSlashes(WirePaths.AM_ALLOCATE.substring(1)), () -> post(() -> complete("allocated"))),
        path(PathMatchers.separateOnSlashes(WirePaths.AM_REGISTER.substring(1)), () -> post(() -> complete("registered"))));
    ServeGate gate = new ServeGate(standing::get, journal::get);
    MemberSignals.get(Adapter.toClassic(system)).install(new MemberSignals.Signals(standing::get, journal::get,
        () -> CompletableFuture.completedFuture(regionsDown.get())));
    binding = Http.get(system).newServerAt("127.0.0.1", 0)
        .bind(concat(new HealthRoutes(system).routes(), gate.routes(() -> inner)))
        .toCompletableFuture().get(10, TimeUnit.SECONDS);
    base = "http://127.0.0.1:" + binding.localAddress().getPort();
  }

  @AfterAll
  static void stop() {
    system.terminate();
  }

  @BeforeEach
  void serving() {
    standing.set(Standing.SERVING);
    journal.set(JournalHealth.Status.REACHABLE);
    regionsDown.set(List.of());
    reached.set(0);
  }

  private static HttpResponse<String> send(String method, String path) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10));
    b = method.equals("GET") ? b.GET() : b.POST(HttpRequest.BodyPublishers.noBody());
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String refusal(HttpResponse<String> r, String exception) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(503);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
    JsonNode e = WireJson.mapper().readTree(r.body()).path("RemoteException");
    assertThat(e.path("exception").asText()).isEqualTo(exception.substring(exception.lastIndexOf('.') + 1));
    assertThat(e.path("javaClassName").asText()).isEqualTo(exception);
    return e.path("message").asText();
  }

  @Test
  void aServingMemberPassesEveryRequestAndIsReady() throws Exception {
    assertThat(send("GET", "/apps").statusCode()).isEqualTo(200);
    assertThat(send("POST", "/apps").statusCode()).isEqualTo(200);
    HttpResponse<String> ready = send("GET", "/ready");
    assertThat(ready.statusCode()).isEqualTo(200);
    assertThat(ready.body()).isEqualTo("{\"ready\":true}");
  }

  @Test
  void aPartitionedMemberRefusesWritesAndStillServesReads() throws Exception {
    standing.set(Standing.of(SELF, List.of(new Standing.Seen(OTHER1, MemberStatus.up(), false),
        new Standing.Seen(OTHER2, MemberStatus.up(), false), new Standing.Seen(SELF, MemberStatus.up(), true))));
    assertThat(refusal(send("POST", "/apps"), ServeGate.STANDBY)).isEqualTo("This RM member does not serve writes: "
        + "this member cannot reach a majority of the cluster (1 of 3 members reachable); ask another member");
    assertThat(reached).as("the write reached no route").hasValue(0);
    assertThat(send("GET", "/apps").statusCode()).isEqualTo(200);
    assertThat(refusal(send("GET", "/ready"), ServeGate.STANDBY)).contains("cannot reach a majority");
  }

  @Test
  void aMemberThatHasNotJoinedAnswersOnlyItsReadiness() throws Exception {
    standing.set(Standing.of(SELF, List.of()));
    assertThat(refusal(send("GET", "/apps"), ServeGate.STANDBY)).contains("has not joined the cluster yet");
    assertThat(refusal(send("POST", "/apps"), ServeGate.STANDBY)).contains("has not joined the cluster yet");
    assertThat(reached).hasValue(0);
    assertThat(refusal(send("GET", "/ready"), ServeGate.STANDBY))
        .isEqualTo("This RM member is not ready: this member has not joined the cluster yet");
  }

  @Test
  void withoutItsJournalAMemberRefusesWritesSayingWhyAndServesReads() throws Exception {
    journal.set(new JournalHealth.Status(false, "the journal's database did not answer a check within 1000 ms"));
    assertThat(refusal(send("POST", "/apps"), ServeGate.RETRIABLE)).isEqualTo("This RM member cannot write now: "
        + "the journal's database did not answer a check within 1000 ms; retry shortly");
    assertThat(reached).hasValue(0);
    assertThat(send("GET", "/apps").statusCode()).isEqualTo(200);
    assertThat(refusal(send("GET", "/ready"), ServeGate.RETRIABLE))
        .isEqualTo("This RM member is not ready: the journal's database did not answer a check within 1000 ms");
  }

  @Test
  void withoutItsJournalAMemberStillAnswersHeartbeatsAndAllocatesFromMemory() throws Exception {
    journal.set(new JournalHealth.Status(false, "the journal's database is unreachable: Connection refused"));
    assertThat(send("POST", WirePaths.NM_HEARTBEAT).body()).isEqualTo("beat");
    assertThat(send("POST", WirePaths.AM_ALLOCATE).body()).isEqualTo("allocated");
    assertThat(refusal(send("POST", WirePaths.AM_REGISTER), ServeGate.RETRIABLE)).contains("Connection refused");
  }

  @Test
  void aPartitionedMemberRefusesHeartbeatsAndAllocatesToo() throws Exception {
    standing.set(Standing.of(SELF, List.of(new Standing.Seen(OTHER1, MemberStatus.up(), false),
        new Standing.Seen(OTHER2, MemberStatus.up(), false), new Standing.Seen(SELF, MemberStatus.up(), true))));
    refusal(send("POST", WirePaths.NM_HEARTBEAT), ServeGate.STANDBY);
    refusal(send("POST", WirePaths.AM_ALLOCATE), ServeGate.STANDBY);
  }

  @Test
  void aMemberWhoseShardRegionsHaveNotRegisteredIsNotReadyAndSaysWhich() throws Exception {
    regionsDown.set(List.of("Application", "Node"));
    assertThat(refusal(send("GET", "/ready"), ServeGate.RETRIABLE)).isEqualTo("This RM member is not ready: its shard"
        + " region(s) Application, Node have not registered with their coordinator yet");
    regionsDown.set(List.of());
    assertThat(send("GET", "/ready").statusCode()).isEqualTo(200);
  }

  @Test
  void aMemberWithoutItsJournalOrMajorityIsStillAlive() throws Exception {
    journal.set(new JournalHealth.Status(false, "the journal's database did not answer a check within 1000 ms"));
    standing.set(Standing.of(SELF, List.of()));
    HttpResponse<String> alive = send("GET", "/alive");
    assertThat(alive.statusCode()).isEqualTo(200);
    assertThat(alive.body()).isEqualTo("{\"alive\":true}");
    assertThat(send("GET", "/ready").statusCode()).isEqualTo(503);
  }
}
