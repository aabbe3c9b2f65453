package dev.bobbin.protocol.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.protocol.rest.ContainerLogFileInfo;
import dev.bobbin.protocol.rest.NodeContainerInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The NodeManager's REST facade against a server that answers as Bobbin's NodeManager does. */
class NodeRestClientTest {
  private static final String C1 = "container_1_0001_01_000002";

  private final NodeRestClient client = new NodeRestClient(BobbinHttp.withDefaults());
  private TestingServer server;

  @AfterEach
  void stop() {
    if (server != null) server.close();
  }

  @Test
  void theNodesIdAndWhatItOffersContainers() throws Exception {
    server = TestingServer.start().on("/ws/v1/node/info", 200, """
        {"nodeInfo":{"id":"127.0.0.1:45454","nodeHostName":"127.0.0.1","nodeHTTPAddress":"127.0.0.1:8042",
         "totalPmemAllocatedContainersMB":4096,"totalVCoresAllocatedContainers":4,"nodeHealthy":true,
         "containersRunning":1}}""");

    var info = client.info("127.0.0.1:" + server.port());

    assertThat(info.id()).isEqualTo("127.0.0.1:45454");
    assertThat(info.totalPmemAllocatedContainersMB()).isEqualTo(4096);
    assertThat(info.totalVCoresAllocatedContainers()).isEqualTo(4);
    assertThat(info.nodeHealthy()).isTrue();
  }

  @Test
  void containersAreReadWhetherNoneOneOrMany() throws Exception {
    server = TestingServer.start().on("/ws/v1/node/containers", 200, "{\"containers\":null}");
    assertThat(client.containers(server.url())).isEmpty();

    server.on("/ws/v1/node/containers", 200, """
        {"containers":{"container":{"id":"%s","state":"RUNNING","exitCode":-1000,
         "totalMemoryNeededMB":256,"totalVCoresNeeded":1}}}""".formatted(C1));
    assertThat(client.containers(server.url())).containsExactly(
        new NodeContainerInfo(C1, "RUNNING", null, null, null, -1000, null, 256, 1));

    server.on("/ws/v1/node/containers", 200, """
        {"containers":{"container":[{"id":"a","state":"DONE","exitCode":0},{"id":"b","state":"RUNNING"}]}}""");
    assertThat(client.containers(server.url())).extracting(NodeContainerInfo::id).containsExactly("a", "b");
  }

  @Test
  void aContainersLogIsItsText() throws Exception {
    server = TestingServer.start().on("/ws/v1/node/containers/" + C1 + "/logs/stdout", ex -> {
      byte[] text = ("hello from " + C1 + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
      ex.getResponseHeaders().set("Content-Type", "text/plain; charset=UTF-8");
      ex.sendResponseHeaders(200, text.length);
      ex.getResponseBody().write(text);
    });

    assertThat(client.containerLog(server.url(), C1, "stdout")).isEqualTo("hello from " + C1 + "\n");
    assertThat(server.received.get(0).header("Accept")).isEqualTo("text/plain");
    assertThatThrownBy(() -> client.containerLog(server.url(), C1, "stderr"))
        .isInstanceOfSatisfying(RemoteErrorException.class, e -> assertThat(e.status()).isEqualTo(404));
  }

  @Test
  void aContainersLogFilesAreListedAndANameIsSentAsOnePathSegment() throws Exception {
    server = TestingServer.start().on("/ws/v1/node/containers/" + C1 + "/logs", 200, """
        {"containerLogsInfo":{"containerId":"%s","logAggregationType":"LOCAL","containerLogInfo":[
         {"fileName":"stderr","fileSize":"0","lastModifiedTime":"2024-01-01T00:00:00Z"},
         {"fileName":"stdout","fileSize":"12","lastModifiedTime":"2024-01-01T00:00:01Z"}]}}""".formatted(C1));

    assertThat(client.containerLogFiles(server.url(), C1)).containsExactly(
        new ContainerLogFileInfo("stderr", "0", "2024-01-01T00:00:00Z"),
        new ContainerLogFileInfo("stdout", "12", "2024-01-01T00:00:01Z"));

    server.on("/ws/v1/node/containers/" + C1 + "/logs/my log", 200, "text");
    assertThat(client.containerLog(server.url(), C1, "my log")).isEqualTo("text");
  }
}
