package dev.bobbin.node;

import static dev.bobbin.node.NmFixture.containerId;
import static dev.bobbin.node.NmFixture.newApplicationId;
import static dev.bobbin.node.NmFixture.startRequest;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.ContainerState;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.node.ContainerManagement.StartContainersResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Scheduler epochs fence an older scheduler of the cluster a node follows; a cluster that replaced
 * it (a new journal, whose epochs start again) is registered with from scratch instead.
 */
class ClusterIdentityIT {
  @RegisterExtension final NmFixture fx = NmFixture.perTest();

  private static StartContainersResponse start(NmHttp http, TestingRm rm, NodeManager nm, String id, long epoch) {
    return http.start(startRequest(rm.containerToken(id, nm.nodeId(), epoch), "exit 0"));
  }

  @Test
  void withinOneClusterAnOlderSchedulersTokensAndAnswersStayRefused() {
    TestingRm rm = fx.rm();
    rm.clusterId = "cluster-a";
    rm.epoch = 2;
    NodeManager nm = fx.registeredNm(rm);
    NmHttp http = new NmHttp(nm.httpAddress());
    StartContainersResponse refused = start(http, rm, nm, containerId(newApplicationId(), 1), 1);
    assertThat(refused.succeeded()).isEmpty();
    assertThat(refused.failed()).singleElement().satisfies(f ->
        assertThat(f.message()).contains("scheduler epoch 1, older than epoch 2"));

    // The same cluster's scheduler of epoch 1 lives on somewhere: its answers are not obeyed, and
    // the node keeps looking for the current one instead of taking containers from it.
    rm.epoch = 1;
    int registered = rm.registrations.size();
    fx.eventually(() -> assertThat(rm.registrations).hasSizeGreaterThan(registered + 1));
    assertThat(start(http, rm, nm, containerId(newApplicationId(), 1), 1).succeeded()).isEmpty();
  }

  @Test
  void aNodeWhoseClusterWasReplacedRegistersWithTheNewOneAndRunsItsContainers() {
    TestingRm rm = fx.rm();
    rm.clusterId = "cluster-a";
    rm.epoch = 2;
    NodeManager nm = fx.registeredNm(rm);
    NmHttp http = new NmHttp(nm.httpAddress());

    // A fresh cluster on the same address: it knows no node, and its first scheduler is epoch 1.
    rm.clusterId = "cluster-b";
    rm.epoch = 1;
    rm.forgetNodes();
    int registered = rm.registrations.size();
    fx.eventually(() -> assertThat(rm.registrations).hasSizeGreaterThan(registered));
    int heartbeats = rm.heartbeats.size();
    fx.eventually(() -> assertThat(rm.heartbeats).hasSizeGreaterThan(heartbeats + 2));
    assertThat(rm.registrations).hasSize(registered + 1);

    String id = containerId(newApplicationId(), 1);
    assertThat(start(http, rm, nm, id, 1).succeeded()).containsExactly(id);
    fx.eventually(() -> assertThat(rm.lastReported(id)).get()
        .returns(ContainerState.COMPLETE, ContainerStatus::state).returns(0, ContainerStatus::exitStatus));
  }

  @Test
  void aHeartbeatAnsweredForAnotherClusterMakesTheNodeRegisterAgain() {
    TestingRm rm = fx.rm();
    rm.clusterId = "cluster-a";
    rm.epoch = 5;
    NodeManager nm = fx.registeredNm(rm);
    int registered = rm.registrations.size();

    rm.clusterId = "cluster-c";
    rm.epoch = 1;
    fx.eventually(() -> assertThat(rm.registrations).hasSize(registered + 1));
    int heartbeats = rm.heartbeats.size();
    fx.eventually(() -> assertThat(rm.heartbeats).hasSizeGreaterThan(heartbeats + 1));
    assertThat(rm.registrations).hasSize(registered + 1);
    String id = containerId(newApplicationId(), 1);
    assertThat(start(new NmHttp(nm.httpAddress()), rm, nm, id, 1).succeeded()).containsExactly(id);
  }
}
