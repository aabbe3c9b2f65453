package dev.bobbin.node;

import static dev.bobbin.node.NmFixture.containerId;
import static dev.bobbin.node.NmFixture.newApplicationId;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.ContainerState;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.WirePaths;
import dev.bobbin.protocol.node.ContainerManagement.GetContainerStatusesRequest;
import dev.bobbin.protocol.node.ContainerManagement.StartContainersResponse;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Containers as real processes: launch, environment, exit codes, logs and the NM REST views. */
class ContainerLaunchIT {
  @TempDir static Path workDir;
  static NmFixture fx;
  static TestingRm rm;
  static NodeManager nm;
  static NmHttp http;

  @BeforeAll
  static void startNode() {
    fx = new NmFixture(workDir);
    rm = fx.rm();
    nm = fx.registeredNm(rm);
    http = new NmHttp(nm.httpAddress());
  }

  @AfterAll
  static void stopNode() {
    fx.close();
  }

  @Test
  void echoContainerWritesStdoutAndIsReportedCompleteWithExitZero() {
    String id = containerId(newApplicationId(), 1);
    StartContainersResponse resp = fx.startOne(http, rm, nm, id, "echo \"hello from $CONTAINER_ID\"");
    assertThat(resp.failed()).isEmpty();
    assertThat(resp.succeeded()).containsExactly(id);

    fx.eventually(() -> assertThat(rm.lastReported(id)).get()
        .returns(ContainerState.COMPLETE, ContainerStatus::state)
        .returns(0, ContainerStatus::exitStatus));

    HttpResponse<String> stdout = http.get(WirePaths.NM_CONTAINERS + "/" + id + "/logs/stdout");
    assertThat(stdout.statusCode()).isEqualTo(200);
    assertThat(stdout.headers().firstValue("Content-Type")).get().asString().startsWith("text/plain");
    assertThat(stdout.body()).isEqualTo("hello from " + id + "\n");

    JsonNode container = http.getJson(WirePaths.NM_CONTAINERS + "/" + id).get("container");
    assertThat(container.get("id").asText()).isEqualTo(id);
    assertThat(container.get("state").asText()).isEqualTo("EXITED_WITH_SUCCESS");
    assertThat(container.get("exitCode").asInt()).isZero();
    assertThat(container.get("nodeId").asText()).isEqualTo(nm.nodeId());
    assertThat(container.get("user").asText()).isEqualTo("alice");
    assertThat(container.get("totalMemoryNeededMB").asLong()).isEqualTo(256);
    assertThat(container.get("totalVCoresNeeded").asInt()).isEqualTo(1);
    assertThat(container.get("containerLogsLink").asText()).endsWith("/containers/" + id + "/logs");

    JsonNode logs = http.getJson(WirePaths.NM_CONTAINERS + "/" + id + "/logs").get("containerLogsInfo");
    assertThat(logs.get("containerLogInfo").findValuesAsText("fileName")).contains("stdout", "stderr");
  }

  @Test
  void environmentAndPlaceholdersAreExpanded() throws Exception {
    String app = newApplicationId();
    String id = containerId(app, 1);
    var req = NmFixture.startRequest(rm.containerToken(id, nm.nodeId()), Map.of("GREETING", "hi-{{USER}}"),
        "echo \"{{APPLICATION_ID}} $NM_HTTP_PORT $NM_HOST $USER $GREETING $PWD\" > <LOG_DIR>/env.txt",
        "echo \"$JAVA_HOME|$LOG_DIRS|$LOCAL_DIRS\" >> <LOG_DIR>/env.txt");
    assertThat(http.start(req).succeeded()).containsExactly(id);
    fx.eventually(() -> assertThat(rm.lastReported(id)).get().returns(0, ContainerStatus::exitStatus));

    String env = http.get(WirePaths.NM_CONTAINERS + "/" + id + "/logs/env.txt").body();
    String[] lines = env.split("\n");
    String[] first = lines[0].split(" ");
    assertThat(first[0]).isEqualTo(app);
    assertThat(first[1]).isEqualTo(Integer.toString(nm.boundPort()));
    assertThat(first[2]).isEqualTo("127.0.0.1");
    assertThat(first[3]).isEqualTo("alice");
    assertThat(first[4]).isEqualTo("hi-alice");
    Path pwd = Path.of(first[5]);
    assertThat(pwd.getFileName().toString()).isEqualTo(id);
    assertThat(pwd).startsWith(workDir.toAbsolutePath());
    assertThat(Files.readString(pwd.resolve("launch_container.sh"))).contains("export CONTAINER_ID='" + id + "'");
    String[] second = lines[1].split("\\|");
    assertThat(second[0]).isNotBlank();
    assertThat(Path.of(second[1]).getFileName().toString()).isEqualTo(id);
    assertThat(Path.of(second[2]).getFileName().toString()).isEqualTo(app);
  }

  @Test
  void failingCommandReportsItsExitCodeAndStderr() {
    String id = containerId(newApplicationId(), 1);
    fx.startOne(http, rm, nm, id, "echo oops >&2", "exit 3");

    fx.eventually(() -> assertThat(rm.lastReported(id)).get()
        .returns(ContainerState.COMPLETE, ContainerStatus::state)
        .returns(3, ContainerStatus::exitStatus));
    assertThat(rm.lastReported(id).orElseThrow().diagnostics()).contains("exit code 3").contains("oops");
    JsonNode container = http.getJson(WirePaths.NM_CONTAINERS + "/" + id).get("container");
    assertThat(container.get("state").asText()).isEqualTo("EXITED_WITH_FAILURE");
    assertThat(container.get("exitCode").asInt()).isEqualTo(3);
  }

  @Test
  void unknownCommandExitsWith127() {
    String id = containerId(newApplicationId(), 1);
    fx.startOne(http, rm, nm, id, "no-such-command-in-bobbin-tests");
    fx.eventually(() -> assertThat(rm.lastReported(id)).get().returns(127, ContainerStatus::exitStatus));
  }

  @Test
  void statusQueryAnswersForKnownContainers() {
    String id = containerId(newApplicationId(), 1);
    fx.startOne(http, rm, nm, id, "true");
    String token = rm.containerToken(id, nm.nodeId());
    fx.eventually(() -> assertThat(http.statuses(new GetContainerStatusesRequest(List.of(token))).statuses())
        .singleElement()
        .returns(ContainerState.COMPLETE, ContainerStatus::state)
        .returns(ExitStatus.SUCCESS, ContainerStatus::exitStatus));

    String unknown = rm.containerToken(containerId(newApplicationId(), 9), nm.nodeId());
    var resp = http.statuses(new GetContainerStatusesRequest(List.of(unknown)));
    assertThat(resp.statuses()).isEmpty();
    assertThat(resp.failed()).singleElement().satisfies(f -> assertThat(f.message()).contains("not handled"));
  }

  @Test
  void restViewsAndMetricsAreForAuthenticatedUsersWhileContainerManagementTakesItsTokens() {
    for (String path : List.of("/ws/v1/node/info", "/ws/v1/node/containers", "/ws/v1/node/nowhere", "/metrics")) {
      HttpResponse<String> r = http.getAnonymously(path);
      assertThat(r.statusCode()).as(path).isEqualTo(401);
      assertThat(http.readTree(r.body()).at("/RemoteException/exception").asText()).isEqualTo("AuthenticationException");
    }
    assertThat(http.get("/ws/v1/node/info").statusCode()).isEqualTo(200);
    String id = containerId(newApplicationId(), 1);
    fx.startOne(http, rm, nm, id, "true");
    fx.eventually(() -> assertThat(rm.lastReported(id)).get().returns(0, ContainerStatus::exitStatus));
  }

  @Test
  void restViewsAnswerYarnShapesAndErrors() {
    JsonNode info = http.getJson("/ws/v1/node/info").get("nodeInfo");
    assertThat(info.get("id").asText()).isEqualTo(nm.nodeId());
    assertThat(info.get("totalPmemAllocatedContainersMB").asLong()).isEqualTo(4096);
    assertThat(info.get("totalVCoresAllocatedContainers").asLong()).isEqualTo(4);
    assertThat(info.get("nodeHealthy").asBoolean()).isTrue();
    assertThat(http.getJson("/ws/v1/node").get("nodeInfo").get("id").asText()).isEqualTo(nm.nodeId());

    String app = newApplicationId();
    String id = containerId(app, 1);
    fx.startOne(http, rm, nm, id, "true");
    fx.eventually(() -> assertThat(rm.lastReported(id)).get().returns(0, ContainerStatus::exitStatus));
    assertThat(http.getJson("/ws/v1/node/containers").get("containers").get("container").isArray()).isTrue();
    assertThat(http.getJson("/ws/v1/node/containers").get("containers").get("container").findValuesAsText("id"))
        .contains(id);
    assertThat(http.getJson("/ws/v1/node/apps").get("apps").get("app").findValuesAsText("id")).contains(app);
    assertThat(http.getJson("/ws/v1/node/apps/" + app).get("app").get("state").asText()).isEqualTo("RUNNING");

    HttpResponse<String> missing = http.get("/ws/v1/node/containers/" + containerId(newApplicationId(), 1));
    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(http.readTree(missing.body()).at("/RemoteException/exception").asText()).isEqualTo("NotFoundException");
    assertThat(http.get("/ws/v1/node/containers/" + id + "/logs/nope").statusCode()).isEqualTo(404);
    // The server resolves a dot-dot segment as URL syntax, so it lands on a JSON view, never on a file.
    HttpResponse<String> dotDot = http.get("/ws/v1/node/containers/" + id + "/logs/%2E%2E");
    assertThat(dotDot.headers().firstValue("Content-Type")).get().asString().startsWith("application/json");
    assertThat(http.get("/ws/v1/node/containers/" + id + "/logs/..%2F..%2F..%2Fetc%2Fpasswd").statusCode())
        .isEqualTo(400);

    String metrics = http.get("/metrics").body();
    assertThat(metrics).contains("# TYPE bobbin_nm_containers_running gauge")
        .contains("bobbin_nm_containers_launched_total{node=\"" + nm.nodeId() + "\"}")
        .contains("bobbin_nm_registered{node=\"" + nm.nodeId() + "\"} 1");
  }

  @Test
  void malformedBodiesAreRefusedWith400() {
    for (String body : List.of("{not json", "[1,2]", "null", "{\"requests\":\"x\"}", "{}")) {
      HttpResponse<String> r = http.post(WirePaths.NM_START_CONTAINERS, body);
      assertThat(r.statusCode()).as(body).isEqualTo(400);
      JsonNode e = http.readTree(r.body()).get("RemoteException");
      assertThat(e.get("exception").asText()).isEqualTo("BadRequestException");
      assertThat(e.get("javaClassName").asText()).isEqualTo("org.apache.hadoop.yarn.webapp.BadRequestException");
      assertThat(e.get("message").asText()).isNotBlank();
    }
    assertThat(http.post(WirePaths.NM_STOP_CONTAINERS, "{\"containerTokens\":{}}").statusCode()).isEqualTo(400);
  }

  @Test
  void hostileRequestsAreRefusedWithARemoteExceptionStartNothingAndLeaveTheNodeAnswering() {
    String container = containerId(newApplicationId(), 1);
    String start = "{\"requests\":[{\"containerToken\":\"" + rm.containerToken(container, nm.nodeId())
        + "\",\"launchContext\":{\"commands\":[\"true\"],\"environment\":{\"PAD\":\"%s\"}}}]}";
    refused(http.request("POST", WirePaths.NM_START_CONTAINERS, "application/json", start.formatted("p".repeat(1_100_000))),
        413, "WebApplicationException", "bobbin.http.max-request-body");
    refused(http.request("POST", WirePaths.NM_START_CONTAINERS, "text/plain", start.formatted("")), 415,
        "NotSupportedException", "application/json");
    refused(http.request("DELETE", "/ws/v1/node/info?user.name=alice", null, null), 405, "NotAllowedException", "GET");
    refused(http.request("POST", WirePaths.NM_START_CONTAINERS, "application/json",
        "{\"requests\":" + "[".repeat(100) + "]".repeat(100) + "}"), 400, "BadRequestException", "Malformed");
    refused(http.get(WirePaths.NM_CONTAINERS + "/not-a-container"), 400, "BadRequestException",
        "Invalid ContainerId: not-a-container");
    refused(http.get("/ws/v1/node/apps/application_1_" + "1".repeat(40)), 400, "BadRequestException",
        "Invalid ApplicationId");
    assertThat(http.getJson("/ws/v1/node/info").get("nodeInfo").get("id").asText()).isEqualTo(nm.nodeId());
    assertThat(http.getJson("/ws/v1/node/containers").get("containers").get("container").findValuesAsText("id"))
        .doesNotContain(container);
  }

  private void refused(HttpResponse<String> r, int status, String exception, String messagePart) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    JsonNode e = http.readTree(r.body()).get("RemoteException");
    assertThat(e.get("exception").asText()).isEqualTo(exception);
    assertThat(e.get("javaClassName").asText()).endsWith("." + exception);
    assertThat(e.get("message").asText()).contains(messagePart);
  }
}
