package dev.bobbin.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.bobbin.protocol.ContainerEnv;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.LocalResource;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.WireJson;
import dev.bobbin.protocol.WirePaths;
import dev.bobbin.protocol.am.Container;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The launcher against NodeManagers played by small HTTP servers on 127.0.0.1. */
class AmLauncherTest {
  private static final ActorTestKit testKit = ActorTestKit.create();
  private static final Duration TIMEOUT = Duration.ofSeconds(5);
  private static final List<String> RM = List.of("127.0.0.1:8088", "127.0.0.1:8089");

  private final List<HttpServer> servers = new ArrayList<>();
  private final ExecutorService serverThreads = Executors.newCachedThreadPool();

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  @AfterEach
  void stopServers() {
    servers.forEach(s -> s.stop(0));
    serverThreads.shutdownNow();
  }

  /** What a NodeManager does with a start-containers call, given its body. */
  private interface Answer {
    void answer(HttpExchange exchange, byte[] request) throws IOException;
  }

  private String nodeManager(Answer answer) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(serverThreads);
    server.createContext(WirePaths.NM_START_CONTAINERS, ex -> {
      try (ex) {
        answer.answer(ex, ex.getRequestBody().readAllBytes());
      }
    });
    server.start();
    servers.add(server);
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  private static void reply(HttpExchange ex, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(status, bytes.length);
    ex.getResponseBody().write(bytes);
  }

  private static AmLauncher.Launch launch(String id, String nodeAddress, ActorRef<AmLauncher.Launched> scheduler) {
    Container c = new Container(id, "node-1:8041", nodeAddress, new Resource(1024, 1), 0, "token-of-" + id, 0);
    return new AmLauncher.Launch("application_1_0001", "appattempt_1_0001_000001", "alice", c,
        new ContainerLaunchContext(List.of("echo hello"), Map.of("GREETING", "hello"), Map.of("app.jar",
            LocalResource.of("file:///a.jar", LocalResource.Type.FILE, LocalResource.Visibility.PUBLIC, 3, 4))),
        "am-token", scheduler);
  }

  @Test
  void anAcceptedStartCarriesTheRmAddressesAndAmTokenAndIsReportedStarted() throws Exception {
    TestProbe<JsonNode> received = testKit.createTestProbe();
    String nm = nodeManager((ex, body) -> {
      received.getRef().tell(WireJson.mapper().readTree(body));
      reply(ex, 200, "{\"succeeded\":[\"c1\"],\"failed\":[]}");
    });
    TestProbe<AmLauncher.Launched> scheduler = testKit.createTestProbe();
    var launcher = testKit.spawn(AmLauncher.create(RM, TIMEOUT, 4));

    launcher.tell(launch("c1", nm, scheduler.getRef()));

    JsonNode start = received.receiveMessage().path("requests").get(0);
    assertThat(start.path("containerToken").asText()).isEqualTo("token-of-c1");
    JsonNode env = start.path("launchContext").path("environment");
    assertThat(env.path(ContainerEnv.RM_ADDRESSES).asText().split(","))
        .containsExactlyElementsOf(AmLauncher.forAttempt(RM, "appattempt_1_0001_000001"))
        .containsExactlyInAnyOrder("127.0.0.1:8088", "127.0.0.1:8089");
    assertThat(env.path(ContainerEnv.AM_TOKEN).asText()).isEqualTo("am-token");
    assertThat(env.path("GREETING").asText()).isEqualTo("hello");
    assertThat(start.path("launchContext").path("local-resources").path("app.jar").path("resource").asText())
        .isEqualTo("file:///a.jar");
    scheduler.expectMessage(new AmLauncher.Launched("c1", null));
  }

  @Test
  void theAmsOfConsecutiveAttemptsStartAtDifferentMembers() {
    List<String> members = List.of("http://rm1:8088", "http://rm2:8088", "http://rm3:8088");
    java.util.Set<String> firsts = new java.util.HashSet<>();
    for (int app = 1; app <= 12; app++) {
      List<String> order = AmLauncher.forAttempt(members, String.format("appattempt_1_%04d_000001", app));
      assertThat(order).containsExactlyInAnyOrderElementsOf(members);
      firsts.add(order.get(0));
    }
    assertThat(firsts).containsExactlyInAnyOrderElementsOf(members);
  }

  @Test
  void aStartTheNodeManagerRefusesFailsWithItsReason() throws Exception {
    String nm = nodeManager((ex, body) -> reply(ex, 200,
        "{\"succeeded\":[],\"failed\":[{\"containerId\":\"c2\",\"exception\":\"InvalidToken\",\"message\":\"expired\"}]}"));
    TestProbe<AmLauncher.Launched> scheduler = testKit.createTestProbe();
    var launcher = testKit.spawn(AmLauncher.create(RM, TIMEOUT, 4));

    launcher.tell(launch("c2", nm, scheduler.getRef()));

    var failed = scheduler.receiveMessage();
    assertThat(failed.containerId()).isEqualTo("c2");
    assertThat(failed.error()).isEqualTo("InvalidToken: expired");
  }

  @Test
  void anHttpErrorFailsTheStartWithItsStatusAndBody() throws Exception {
    String nm = nodeManager((ex, body) -> reply(ex, 500, "{\"error\":\"disk full\"}"));
    TestProbe<AmLauncher.Launched> scheduler = testKit.createTestProbe();
    var launcher = testKit.spawn(AmLauncher.create(RM, TIMEOUT, 4));

    launcher.tell(launch("c3", nm, scheduler.getRef()));

    var failed = scheduler.receiveMessage();
    assertThat(failed.containerId()).isEqualTo("c3");
    assertThat(failed.error()).contains("HTTP 500").contains("disk full");
  }

  @Test
  void aNodeManagerNobodyAnswersForFailsTheStart() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    TestProbe<AmLauncher.Launched> scheduler = testKit.createTestProbe();
    var launcher = testKit.spawn(AmLauncher.create(RM, TIMEOUT, 4));

    launcher.tell(launch("c4", "127.0.0.1:" + port, scheduler.getRef()));

    var failed = scheduler.receiveMessage();
    assertThat(failed.containerId()).isEqualTo("c4");
    assertThat(failed.error()).contains("ConnectException");
  }

  @Test
  void aSlowNodeManagerHoldsOneLauncherThreadAndTheNextStartWaitsForAFreeOne() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    TestProbe<String> slowReceived = testKit.createTestProbe();
    TestProbe<String> otherReceived = testKit.createTestProbe();
    String slow = nodeManager((ex, body) -> {
      slowReceived.getRef().tell("slow");
      try {
        release.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      reply(ex, 200, "{\"succeeded\":[\"c5\"],\"failed\":[]}");
    });
    String other = nodeManager((ex, body) -> {
      otherReceived.getRef().tell("other");
      reply(ex, 200, "{\"succeeded\":[\"c6\"],\"failed\":[]}");
    });
    TestProbe<AmLauncher.Launched> scheduler = testKit.createTestProbe();
    var launcher = testKit.spawn(AmLauncher.create(RM, TIMEOUT, 1));

    launcher.tell(launch("c5", slow, scheduler.getRef()));
    slowReceived.expectMessage("slow");
    launcher.tell(launch("c6", other, scheduler.getRef()));
    otherReceived.expectNoMessage(Duration.ofMillis(500));

    release.countDown();
    otherReceived.expectMessage("other");
    assertThat(List.of(scheduler.receiveMessage(), scheduler.receiveMessage()))
        .containsExactlyInAnyOrder(new AmLauncher.Launched("c5", null), new AmLauncher.Launched("c6", null));
  }
}
