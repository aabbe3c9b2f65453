package dev.bobbin.protocol.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.protocol.NodeAction;
import dev.bobbin.protocol.WirePaths;
import dev.bobbin.protocol.am.AllocateResponse;
import dev.bobbin.protocol.node.ContainerTokenKey;
import dev.bobbin.protocol.node.RegisterNodeResponse;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The transport against a real HTTP server on 127.0.0.1. */
class BobbinHttpTest {
  private static final String NOT_REGISTERED = """
      {"RemoteException":{"exception":"ApplicationMasterNotRegisteredException",
       "message":"Application Master is not registered","javaClassName":
       "org.apache.hadoop.yarn.exceptions.ApplicationMasterNotRegisteredException"}}""";

  private final BobbinHttp http = BobbinHttp.builder().requestTimeout(Duration.ofSeconds(5)).build();
  private TestingServer server;

  @AfterEach
  void stop() {
    if (server != null) server.close();
  }

  @Test
  void aSuccessIsDecodedIntoItsWireRecord() throws Exception {
    server = TestingServer.start().on(WirePaths.NM_REGISTER, 200, """
        {"nodeAction":"NORMAL","diagnostics":"","rmIdentifier":17,"heartbeatIntervalMs":1000,
         "containerTokenKeys":[{"keyId":4,"key":"a2V5","activatesAtMs":10,"retiresAtMs":0}],"rmEpoch":3,
         "somethingNewer":true}""");

    RegisterNodeResponse r = http.callAndWait(
        Call.post(server.url(), WirePaths.NM_REGISTER, Map.of("nodeId", "h:1")), RegisterNodeResponse.class);

    assertThat(r).isEqualTo(new RegisterNodeResponse(NodeAction.NORMAL, "", 17, 1000,
        List.of(new ContainerTokenKey(4, "a2V5", 10, 0)), 3));
    TestingServer.Received sent = server.received.get(0);
    assertThat(sent.method()).isEqualTo("POST");
    assertThat(sent.header("Content-Type")).isEqualTo("application/json");
    assertThat(sent.header("Accept")).isEqualTo("application/json");
    assertThat(sent.body()).isEqualTo("{\"nodeId\":\"h:1\"}");
  }

  /** Hadoop's JSON writes a one-element list as an object and an empty one as null; both must read. */
  @Test
  void readsSingleObjectsAndNullsAsLists() {
    String json = """
        {"responseId":3,
         "allocatedContainers":{"id":"container_1_0001_01_000002","nodeId":"n:1","nodeHttpAddress":"n:8042",
                                "resource":{"memory":512,"vCores":1},"priority":1,"containerToken":"t",
                                "allocationRequestId":-1},
         "completedContainerStatuses":null,
         "numClusterNodes":1}""";
    Reply reply = new Reply("http://rm", 200, null, json.getBytes(StandardCharsets.UTF_8));

    AllocateResponse r = reply.as(AllocateResponse.class);

    assertThat(r.allocatedContainers()).singleElement().satisfies(c -> assertThat(c.resource().vCores()).isEqualTo(1));
    assertThat(r.completedContainerStatuses()).isEmpty();
    assertThat(r.amCommand()).isNull();
  }

  @Test
  void aRemoteExceptionFailsTheCallWithItsStatusExceptionAndMessage() throws Exception {
    server = TestingServer.start().on(WirePaths.AM_ALLOCATE, 400, NOT_REGISTERED);

    assertThatThrownBy(() -> http.sendAndWait(Call.post(server.url(), WirePaths.AM_ALLOCATE, Map.of())))
        .isInstanceOfSatisfying(RemoteErrorException.class, e -> {
          assertThat(e.status()).isEqualTo(400);
          assertThat(e.exception()).isEqualTo("ApplicationMasterNotRegisteredException");
          assertThat(e.javaClassName())
              .isEqualTo("org.apache.hadoop.yarn.exceptions.ApplicationMasterNotRegisteredException");
          assertThat(e.remoteMessage()).isEqualTo("Application Master is not registered");
          assertThat(e.url()).isEqualTo(server.url() + WirePaths.AM_ALLOCATE);
          assertThat(e.describe())
              .isEqualTo("HTTP 400 ApplicationMasterNotRegisteredException: Application Master is not registered");
          assertThat(e.worthTryingAnotherServer()).isFalse();
        });
  }

  @Test
  void anErrorWhoseBodyIsNoRemoteExceptionKeepsTheStartOfTheBody() throws Exception {
    server = TestingServer.start().on("/down", 503, "<html>Service Unavailable</html>");

    assertThatThrownBy(() -> http.sendAndWait(Call.get(server.url(), "/down")))
        .isInstanceOfSatisfying(RemoteErrorException.class, e -> {
          assertThat(e.status()).isEqualTo(503);
          assertThat(e.exception()).isEmpty();
          assertThat(e.remoteMessage()).isEqualTo("<html>Service Unavailable</html>");
          assertThat(e.worthTryingAnotherServer()).isTrue();
        });
  }

  @Test
  void aBodyThatIsNotTheExpectedRecordIsUnreadable() throws Exception {
    server = TestingServer.start().on("/odd", 200, "[1,2,3]");

    assertThatThrownBy(() -> http.callAndWait(Call.get(server.url(), "/odd"), RegisterNodeResponse.class))
        .isInstanceOfSatisfying(UnreadableReplyException.class, e -> {
          assertThat(e).hasMessageContaining("unreadable RegisterNodeResponse");
          assertThat(e.worthTryingAnotherServer()).isTrue();
        });
  }

  @Test
  void aBodyThatIsNotJsonAtAllSaysSoAndKeepsItsStart() throws Exception {
    server = TestingServer.start().on("/login", 200, "<html>proxy login</html>").on("/odd", 200, "[1,2,3]");

    assertThatThrownBy(() -> http.callAndWait(Call.get(server.url(), "/login"), RegisterNodeResponse.class))
        .isInstanceOfSatisfying(UnreadableReplyException.class, e -> {
          assertThat(e.notJson()).isTrue();
          assertThat(e.excerpt()).isEqualTo("<html>proxy login</html>");
        });
    assertThatThrownBy(() -> http.callAndWait(Call.get(server.url(), "/odd"), RegisterNodeResponse.class))
        .isInstanceOfSatisfying(UnreadableReplyException.class, e -> {
          assertThat(e.notJson()).isFalse();
          assertThat(e.excerpt()).isEqualTo("[1,2,3]");
        });
  }

  @Test
  void aRefusedConnectionIsUnreachable() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }

    assertThatThrownBy(() -> http.sendAndWait(Call.get("http://127.0.0.1:" + port, "/ws/v1/cluster")))
        .isInstanceOfSatisfying(UnreachableException.class, e -> {
          assertThat(e.connectFailed()).isTrue();
          assertThat(e.timedOut()).isFalse();
          assertThat(e.reason()).isEqualTo("connection refused");
          assertThat(e).hasMessageContaining("ConnectException");
          assertThat(e.worthTryingAnotherServer()).isTrue();
        });
  }

  @Test
  void aServerThatDoesNotAnswerInTimeIsUnreachable() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    server = TestingServer.start().on("/slow", answerWhenReleased(release));
    try {
      Call call = Call.get(server.url(), "/slow").withTimeout(Duration.ofMillis(300));
      assertThatThrownBy(() -> http.sendAndWait(call))
          .isInstanceOfSatisfying(UnreachableException.class, e -> {
            assertThat(e.timedOut()).isTrue();
            assertThat(e.connectFailed()).isFalse();
            assertThat(e.reason()).isEqualTo("no answer in time");
          });
    } finally {
      release.countDown();
    }
  }

  @Test
  void aTransportWaitsAsLongAsItsViewSaysForCallsThatSetNoTimeout() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    server = TestingServer.start().on("/slow", answerWhenReleased(release));
    try {
      BobbinHttp impatient = http.withRequestTimeout(Duration.ofMillis(300));
      assertThatThrownBy(() -> impatient.sendAndWait(Call.get(server.url(), "/slow")))
          .isInstanceOfSatisfying(UnreachableException.class, e -> assertThat(e.timedOut()).isTrue());
      assertThatThrownBy(() -> http.withRequestTimeout(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    } finally {
      release.countDown();
    }
  }

  /** Answers once {@code release} is counted down (or after 10 s), holding the caller until then. */
  private static TestingServer.Answer answerWhenReleased(CountDownLatch release) {
    return ex -> {
      try {
        release.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      TestingServer.reply(ex, 200, "{}");
    };
  }

  @Test
  void theCredentialsGoOnEveryRequest() throws Exception {
    AtomicInteger signed = new AtomicInteger();
    Credentials credentials = request -> java.net.http.HttpRequest.newBuilder(request, (n, v) -> true)
        .header("Authorization", "Bearer t-" + signed.incrementAndGet())
        .build();
    BobbinHttp authenticated = BobbinHttp.builder().credentials(credentials).build();
    server = TestingServer.start().on("/a", 200, "{}").on("/refused", 403, NOT_REGISTERED);

    authenticated.sendAndWait(Call.get(server.url(), "/a"));
    authenticated.sendAndWait(Call.post(server.url(), "/a", Map.of("k", "v")));
    authenticated.sendAndWait(Call.put(server.url(), "/a", null));
    assertThatThrownBy(() -> authenticated.sendAndWait(Call.get(server.url(), "/refused")))
        .isInstanceOf(RemoteErrorException.class);

    assertThat(server.received).extracting(r -> r.method() + " " + r.header("Authorization"))
        .containsExactly("GET Bearer t-1", "POST Bearer t-2", "PUT Bearer t-3", "GET Bearer t-4");
  }

  @Test
  void theAmTokenNodeCredentialAndSimpleUserCredentialsAddTheirHeaderAndParameter() throws Exception {
    server = TestingServer.start().on("/a", 200, "{}");

    BobbinHttp.builder().credentials(Credentials.amToken("tok")).build()
        .sendAndWait(Call.get(server.url(), "/a"));
    BobbinHttp.builder().credentials(Credentials.simpleUser("alice b")).build()
        .sendAndWait(Call.get(server.url(), "/a").withQuery(Map.of("states", "RUNNING")));
    BobbinHttp.builder().credentials(Credentials.nodeCredential("join-token\n")).build()
        .sendAndWait(Call.get(server.url(), "/a"));

    assertThat(server.received.get(0).header(WirePaths.AM_TOKEN_HEADER)).isEqualTo("tok");
    assertThat(server.received.get(1).query()).isEqualTo("states=RUNNING&user.name=alice+b");
    assertThat(server.received.get(2).header(WirePaths.NODE_CREDENTIAL_HEADER)).isEqualTo("join-token");
    assertThatThrownBy(() -> Credentials.nodeCredential(" ")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theBearerCredentialsSendTheTokenInTheAuthorizationHeader() throws Exception {
    server = TestingServer.start().on("/a", 200, "{}");

    BobbinHttp.builder().credentials(Credentials.bearer(" eyJ.abc.def\n")).build()
        .sendAndWait(Call.get(server.url(), "/a"));

    assertThat(server.received.get(0).header("Authorization")).isEqualTo("Bearer eyJ.abc.def");
    assertThatThrownBy(() -> Credentials.bearer(" ")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Credentials.bearer("two words")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("spaces");
  }

  @Test
  void aTransportCallsAsOtherCredentialsOverTheSameConnections() throws Exception {
    server = TestingServer.start().on("/a", 200, "{}");
    BobbinHttp shared = BobbinHttp.withDefaults();

    shared.withCredentials(Credentials.amToken("first")).sendAndWait(Call.get(server.url(), "/a"));
    shared.withCredentials(Credentials.amToken("second")).sendAndWait(Call.get(server.url(), "/a"));
    shared.sendAndWait(Call.get(server.url(), "/a"));

    assertThat(server.received).extracting(r -> String.valueOf(r.header(WirePaths.AM_TOKEN_HEADER)))
        .containsExactly("first", "second", "null");
  }

  @Test
  void aTransportDoesItsWorkOnAnswersOnTheExecutorItWasGiven() throws Exception {
    server = TestingServer.start().on(WirePaths.NM_REGISTER, 200, "{\"nodeAction\":\"NORMAL\",\"rmIdentifier\":17}");
    AtomicInteger tasks = new AtomicInteger();
    BobbinHttp direct = BobbinHttp.builder().executor(task -> {
      tasks.incrementAndGet();
      task.run();
    }).build();

    RegisterNodeResponse r = direct.callAndWait(
        Call.post(server.url(), WirePaths.NM_REGISTER, Map.of("nodeId", "h:1")), RegisterNodeResponse.class);

    assertThat(r.rmIdentifier()).isEqualTo(17);
    assertThat(tasks).hasPositiveValue();
  }

  @Test
  void aBadAddressFailsTheCallInsteadOfThrowing() {
    var stage = http.send(Call.get("http://bad host:1", "/x"));

    assertThat(stage).isCompletedExceptionally();
    assertThatThrownBy(() -> BobbinHttp.await(stage)).isInstanceOf(UnreachableException.class);
  }

  @Test
  void addressesWithOrWithoutSchemeWork() {
    assertThat(Call.url("h:8042", "/p")).isEqualTo("http://h:8042/p");
    assertThat(Call.url("http://h:8042/", "/p")).isEqualTo("http://h:8042/p");
    assertThat(Call.url("https://h:8042", "/p")).isEqualTo("https://h:8042/p");
  }
}
