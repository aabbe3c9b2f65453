package dev.bobbin.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class NodesCommandTest {
  private static final String NODES = """
      {"nodes":{"node":[
        {"id":"node1.example:45454","state":"RUNNING","nodeHTTPAddress":"node1.example:8042","numContainers":3,
         "usedMemoryMB":3072,"availMemoryMB":5120,"usedVirtualCores":3,"availableVirtualCores":5,
         "totalResource":{"memory":8192,"vCores":8}},
        {"id":"node2.example:45454","state":"LOST","nodeHTTPAddress":"","numContainers":0,
         "usedMemoryMB":0,"availMemoryMB":4096,"usedVirtualCores":0,"availableVirtualCores":4},
        {"id":"node3.example:45454","state":"UNHEALTHY","nodeHTTPAddress":"node3.example:8042","numContainers":1,
         "usedMemoryMB":1024,"availMemoryMB":3072,"usedVirtualCores":1,"availableVirtualCores":3,
         "totalResource":{"memory":4096,"vCores":4},
         "healthReport":"ERROR /data1 is read-only\\nERROR fan 2 stopped"}]}}
      """;

  private final FakeRm rm = TestRms.start();

  @AfterEach
  void stop() {
    rm.close();
  }

  @Test
  void printsATableOfNodesWithUsedAndTotalResourcesAndTheirHealthReports() {
    rm.on("GET", AppPaths.NODES, 200, NODES);

    Cli.Result result = Cli.run("nodes", "--rm", rm.url());

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).isEqualTo("""
        Total number of nodes: 3
        Node-Id              Node-State  Node-Http-Address   Containers  Memory-Used/Total  VCores-Used/Total  Health-Report
        node1.example:45454  RUNNING     node1.example:8042  3           3072/8192 MB       3/8
        node2.example:45454  LOST        N/A                 0           0/4096 MB          0/4
        node3.example:45454  UNHEALTHY   node3.example:8042  1           1024/4096 MB       1/4                ERROR /data1 is read-only ERROR fan 2 stopped
        """);
  }

  @Test
  void passesTheStatesFilter() {
    rm.on("GET", AppPaths.NODES, 200, "{\"nodes\":null}");

    Cli.Result result = Cli.run("nodes", "--rm", rm.url(), "--states", "running,unhealthy");

    assertThat(result.out()).startsWith("Total number of nodes: 0\n");
    assertThat(rm.requests().get(0).query()).isEqualTo(Map.of("states", "RUNNING,UNHEALTHY", "user.name", Cli.USER));
  }
}
