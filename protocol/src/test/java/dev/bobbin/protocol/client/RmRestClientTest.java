package dev.bobbin.protocol.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.protocol.FinalApplicationStatus;
import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.WireJson;
import dev.bobbin.protocol.YarnApplicationState;
import dev.bobbin.protocol.rest.AppInfo;
import dev.bobbin.protocol.rest.AppsQuery;
import dev.bobbin.protocol.rest.AttemptContainerInfo;
import dev.bobbin.protocol.rest.KillAnswer;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The REST facade's paths, bodies and decoding against a server that answers as Bobbin's RM does. */
class RmRestClientTest {
  private static final String APP = """
      {"app":{"id":"application_1_0001","user":"alice","name":"sh","queue":"root.default","state":"RUNNING",
       "finalStatus":"UNDEFINED","progress":42.5,"trackingUI":"ApplicationMaster","clusterId":1,
       "applicationType":"DISTRIBUTED-SHELL","priority":0,"startedTime":10,"finishedTime":0,
       "amRPCAddress":"h:1","allocatedMB":1024,"allocatedVCores":2,"runningContainers":2,
       "numAMContainerPreempted":1,"preemptionsSuffered":{"preemption":{"containerId":"c1","victimAppId":
       "application_1_0001","starvedAppId":"application_1_0002","reason":"fair share"}},
       "preemptionsCaused":{"preemption":[]},"maxAppAttempts":2}}""";

  private TestingServer server;

  @AfterEach
  void stop() {
    if (server != null) server.close();
  }

  private RmRestClient client(String... urls) {
    return new RmRestClient(BobbinHttp.builder().credentials(Credentials.simpleUser("alice")).build(), List.of(urls));
  }

  @Test
  void newApplicationAndSubmitAsTheUser() throws Exception {
    server = TestingServer.start()
        .on("/ws/v1/cluster/apps/new-application", 200,
            "{\"application-id\":\"application_1_0001\","
                + "\"maximum-resource-capability\":{\"memory\":8192,\"vCores\":4}}")
        .on("/ws/v1/cluster/apps", ex -> {
          ex.getResponseHeaders().set("Location", "http://rm/ws/v1/cluster/apps/application_1_0001");
          TestingServer.reply(ex, 202, "");
        });
    RmRestClient rm = client(server.url());

    var created = rm.newApplication();
    String location = rm.submit(Map.of("application-id", created.applicationId()));

    assertThat(created.applicationId()).isEqualTo("application_1_0001");
    assertThat(created.maximumResourceCapability()).isEqualTo(new Resource(8192, 4));
    assertThat(location).isEqualTo("http://rm/ws/v1/cluster/apps/application_1_0001");
    assertThat(server.received).extracting(r -> r.method() + " " + r.path() + "?" + r.query()).containsExactly(
        "POST /ws/v1/cluster/apps/new-application?user.name=alice", "POST /ws/v1/cluster/apps?user.name=alice");
    assertThat(WireJson.mapper().readTree(server.received.get(1).body()).path("application-id").asText())
        .isEqualTo("application_1_0001");
  }

  @Test
  void anApplicationReportIsDecodedWithBobbinsPreemptions() throws Exception {
    server = TestingServer.start().on("/ws/v1/cluster/apps/application_1_0001", 200, APP);

    AppInfo app = client(server.url()).application("application_1_0001");

    assertThat(app.state()).isEqualTo(YarnApplicationState.RUNNING);
    assertThat(app.finalStatus()).isEqualTo(FinalApplicationStatus.UNDEFINED);
    assertThat(app.progress()).isEqualTo(42.5f);
    assertThat(app.amRPCAddress()).isEqualTo("h:1");
    assertThat(app.trackingUI()).isEqualTo("ApplicationMaster");
    assertThat(app.preemptionsSuffered().preemption()).singleElement()
        .satisfies(p -> assertThat(p.reason()).isEqualTo("fair share"));
    assertThat(app.preemptionsCaused().preemption()).isEmpty();
  }

  @Test
  void anAttemptsContainersSayWhereEachRuns() throws Exception {
    String path = "/ws/v1/cluster/apps/application_1_0001/appattempts/appattempt_1_0001_000001/containers";
    server = TestingServer.start().on(path, 200, """
        {"containers":{"container":{"containerId":"container_1_0001_01_000002","nodeId":"h:8042",
         "nodeHttpAddress":"https://h:8042","containerState":"RUNNING","allocatedMB":256}}}""");

    assertThat(client(server.url()).attemptContainers("application_1_0001", "appattempt_1_0001_000001"))
        .containsExactly(new AttemptContainerInfo("container_1_0001_01_000002", "h:8042", "https://h:8042", "RUNNING"));
  }

  @Test
  void theApplicationListSendsItsFiltersAndReadsNoneOneOrMany() throws Exception {
    server = TestingServer.start().on("/ws/v1/cluster/apps", 200, "{\"apps\":null}");
    RmRestClient rm = client(server.url());

    List<AppInfo> none = rm.applications(AppsQuery.all()
        .withStates(EnumSet.of(YarnApplicationState.RUNNING, YarnApplicationState.ACCEPTED))
        .withQueue("default").withLimit(5));
    server.on("/ws/v1/cluster/apps", 200, "{\"apps\":{\"app\":" + WireJson.mapper().readTree(APP).path("app") + "}}");
    List<AppInfo> one = rm.applications(AppsQuery.all());

    assertThat(none).isEmpty();
    assertThat(one).extracting(AppInfo::id).containsExactly("application_1_0001");
    assertThat(server.received.get(0).query())
        .isEqualTo("states=ACCEPTED,RUNNING&queue=default&limit=5&user.name=alice");
  }

  @Test
  void aKillIsAPutOfTheKilledStateThatTellsAPendingKillFromADoneOne() throws Exception {
    server = TestingServer.start().on("/ws/v1/cluster/apps/application_1_0001/state", 202, "{\"state\":\"RUNNING\"}");
    RmRestClient rm = client(server.url());

    KillAnswer pending = rm.kill("application_1_0001", "no longer needed");
    server.on("/ws/v1/cluster/apps/application_1_0001/state", 200, "{\"state\":\"KILLED\"}");
    KillAnswer done = rm.kill("application_1_0001", "");

    assertThat(pending).isEqualTo(new KillAnswer(true, "RUNNING"));
    assertThat(pending.isFinal()).isFalse();
    assertThat(done.isFinal()).isTrue();
    JsonNode body = WireJson.mapper().readTree(server.received.get(0).body());
    assertThat(server.received.get(0).method()).isEqualTo("PUT");
    assertThat(body.path("state").asText()).isEqualTo("KILLED");
    assertThat(body.path("diagnostics").asText()).isEqualTo("no longer needed");
  }

  @Test
  void nodesClusterFiguresAndQueueRefresh() throws Exception {
    server = TestingServer.start()
        .on("/ws/v1/cluster/nodes", 200, """
            {"nodes":{"node":[{"id":"h:1","state":"RUNNING","nodeHTTPAddress":"h:8042","numContainers":2,
             "totalResource":{"memory":4096,"vCores":4}}]}}""")
        .on("/ws/v1/cluster/metrics", 200, "{\"clusterMetrics\":{\"appsSubmitted\":3,\"totalMB\":4096}}")
        .on("/ws/v1/cluster/info", 200, "{\"clusterInfo\":{\"id\":17,\"state\":\"STARTED\"}}")
        .on("/ws/v1/cluster/admin/refresh-queues", 200, "{\"result\":\"2 queues changed\"}");
    RmRestClient rm = client(server.url());

    var nodes = rm.nodes(Set.of(NodeState.RUNNING));

    assertThat(nodes).singleElement().satisfies(n -> {
      assertThat(n.nodeHTTPAddress()).isEqualTo("h:8042");
      assertThat(n.totalResource()).isEqualTo(new Resource(4096, 4));
    });
    assertThat(server.received.get(0).query()).isEqualTo("states=RUNNING&user.name=alice");
    assertThat(rm.clusterMetrics().appsSubmitted()).isEqualTo(3);
    assertThat(rm.clusterInfo().id()).isEqualTo(17);
    assertThat(rm.refreshQueues()).isEqualTo("2 queues changed");
    assertThat(server.received.get(3).method()).isEqualTo("PUT");
  }

  @Test
  void aRefusingMemberIsPassedOverAndTheAnsweringOneKept() throws Exception {
    server = TestingServer.start().on("/ws/v1/cluster/info", 200, "{\"clusterInfo\":{\"id\":17}}");
    String dead = deadAddress();
    RmRestClient rm = client(dead, server.url());

    rm.clusterInfo();
    rm.clusterInfo();

    assertThat(rm.currentRm()).isEqualTo(server.url());
    assertThat(server.received).hasSize(2);
  }

  @Test
  void aMemberThatAcceptsButNeverAnswersCostsOneRequestTimeoutAndIsNotCalledAgain() throws Exception {
    server = TestingServer.start().on("/ws/v1/cluster/info", 200, "{\"clusterInfo\":{\"id\":17}}");
    try (SilentServer silent = SilentServer.start()) {
      RmRestClient rm = new RmRestClient(BobbinHttp.builder().requestTimeout(Duration.ofMillis(300)).build(),
          List.of(silent.url(), server.url()));

      rm.clusterInfo();
      rm.clusterInfo();
      rm.clusterInfo();

      assertThat(silent.connections()).isEqualTo(1);
      assertThat(server.received).hasSize(3);
      assertThat(rm.currentRm()).isEqualTo(server.url());
    }
  }

  @Test
  void aPostThatGotNoAnswerIsNotRepeatedAtAnotherMember() throws Exception {
    server = TestingServer.start().on("/ws/v1/cluster/apps/new-application", 200, "{}");
    try (SilentServer silent = SilentServer.start()) {
      RmRestClient rm = new RmRestClient(BobbinHttp.builder().requestTimeout(Duration.ofMillis(300)).build(),
          List.of(silent.url(), server.url()));

      assertThatThrownBy(rm::newApplication).isInstanceOfSatisfying(UnreachableException.class,
          e -> assertThat(e.timedOut()).isTrue());
      assertThat(server.received).isEmpty();
    }
  }

  @Test
  void aMemberThatCannotServeNowIsPassedOverForEveryCall() throws Exception {
    server = TestingServer.start().on("/ws/v1/cluster/apps/new-application", 200,
        "{\"application-id\":\"application_1_0001\"}");
    try (TestingServer unavailable = TestingServer.start().on("/ws/v1/cluster/apps/new-application", 503,
        "{\"RemoteException\":{\"exception\":\"ServiceUnavailableException\",\"message\":\"not in the majority\","
            + "\"javaClassName\":\"org.apache.hadoop.yarn.exceptions.YarnRuntimeException\"}}")) {
      RmRestClient rm = client(unavailable.url(), server.url());

      assertThat(rm.newApplication().applicationId()).isEqualTo("application_1_0001");
      assertThat(unavailable.received).hasSize(1);
      assertThat(rm.currentRm()).isEqualTo(server.url());
    }
  }

  @Test
  void whenNoMemberAnswersTheLastRefusalIsThrown() throws Exception {
    RmRestClient rm = client(deadAddress(), deadAddress());

    assertThatThrownBy(rm::clusterInfo).isInstanceOfSatisfying(UnreachableException.class,
        e -> assertThat(e.reason()).isEqualTo("connection refused"));
  }

  @Test
  void anErrorIsNotRetriedElsewhere() throws Exception {
    server = TestingServer.start();
    RmRestClient rm = client(server.url(), deadAddress());

    assertThatThrownBy(() -> rm.application("application_1_0009"))
        .isInstanceOfSatisfying(RemoteErrorException.class, e -> assertThat(e.status()).isEqualTo(404));
    assertThat(rm.currentRm()).isEqualTo(server.url());
  }

  private static String deadAddress() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return "http://127.0.0.1:" + s.getLocalPort();
    }
  }
}
