package dev.bobbin.node;

import static dev.bobbin.node.NmFixture.containerId;
import static dev.bobbin.node.NmFixture.newApplicationId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.NodeAction;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.node.NodeHeartbeatRequest;
import dev.bobbin.protocol.node.RegisterNodeRequest;
import dev.bobbin.protocol.node.UnregisterNodeRequest;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Registration, heartbeats with YARN's responseId protocol, RM failover and SHUTDOWN. */
class NodeRegistrationIT {
  @RegisterExtension final NmFixture fx = NmFixture.perTest();

  @Test
  void registersWithItsCapacityAndHeartbeatsInOrder() {
    TestingRm rm = fx.rm();
    NodeManager nm = fx.nm(List.of(rm.url()));

    assertThat(nm.nodeId()).isEqualTo("127.0.0.1:" + nm.boundPort());
    assertThat(nm.boundPort()).isPositive();
    fx.eventually(() -> assertThat(rm.heartbeats).hasSizeGreaterThanOrEqualTo(3));
    RegisterNodeRequest reg = rm.registrations.get(0);
    assertThat(reg.nodeId()).isEqualTo(nm.nodeId());
    assertThat(reg.host()).isEqualTo("127.0.0.1");
    assertThat(reg.port()).isEqualTo(nm.boundPort());
    assertThat(reg.httpAddress()).isEqualTo(nm.httpAddress());
    assertThat(reg.rack()).isEqualTo("/rack-a");
    assertThat(reg.capability()).isEqualTo(Resource.of(4096, 4));
    assertThat(reg.containerStatuses()).isEmpty();
    assertThat(rm.registrations).hasSize(1);
    assertThat(rm.responseIdMismatches).hasValue(0);
    assertThat(rm.heartbeats.subList(0, 3)).extracting(NodeHeartbeatRequest::responseId).containsExactly(0, 1, 2);
    assertThat(rm.heartbeats).allSatisfy(h -> assertThat(h.nodeId()).isEqualTo(nm.nodeId()));
    // Every call proves that the node belongs to the cluster, and names the newest container-token key it holds.
    assertThat(rm.credentials).isNotEmpty().allSatisfy(c -> assertThat(c).isEqualTo(fx.credential()));
    assertThat(rm.heartbeats).allSatisfy(h -> assertThat(h.lastKnownContainerTokenKeyId()).isEqualTo(TestingRm.KEY_ID));
  }

  @Test
  void registersWithTheSecondRmWhenTheFirstIsDown() throws IOException {
    TestingRm rm = fx.rm();
    NodeManager nm = fx.nm(List.of(deadAddress(), rm.url()));

    fx.eventually(() -> assertThat(rm.heartbeats).isNotEmpty());
    assertThat(rm.registrations).singleElement().returns(nm.nodeId(), RegisterNodeRequest::nodeId);
  }

  @Test
  void movesOnWhenAnRmAnswers5xxAndComesBackWhenTheOtherDies() {
    TestingRm failing = fx.rm();
    failing.failWithStatus = 503;
    TestingRm good = fx.rm();
    NodeManager nm = fx.nm(List.of(failing.url(), good.url()));
    fx.eventually(() -> assertThat(good.heartbeats).isNotEmpty());

    // The member it uses now fails; the first one has recovered but does not know the node.
    failing.failWithStatus = 0;
    good.failWithStatus = 500;
    // Its first heartbeat there is answered RESYNC (unknown node), so registration comes after it.
    fx.eventually(() -> assertThat(failing.registrations).singleElement().returns(nm.nodeId(), RegisterNodeRequest::nodeId));
    int heartbeatsAtRegistration = failing.heartbeats.size();
    fx.eventually(() -> assertThat(failing.heartbeats).hasSizeGreaterThan(heartbeatsAtRegistration));
    assertThat(failing.registrations).hasSize(1);
  }

  @Test
  void refusesContainersUntilRegistered() throws IOException {
    NodeManager nm = fx.nm(List.of(deadAddress()));
    TestingRm signer = fx.rm();
    String id = containerId(newApplicationId(), 1);
    var resp = new NmHttp(nm.httpAddress()).start(NmFixture.startRequest(signer.containerToken(id, nm.nodeId()), "true"));
    assertThat(resp.succeeded()).isEmpty();
    assertThat(resp.failed()).singleElement().satisfies(f -> assertThat(f.exception()).isEqualTo("NMNotYetReadyException"));
  }

  @Test
  void stopsHeartbeatingWhenTheRmSaysShutdown() {
    TestingRm rm = fx.rm();
    NodeManager nm = fx.registeredNm(rm);
    NmHttp http = new NmHttp(nm.httpAddress());
    rm.nextAction.set(NodeAction.SHUTDOWN);

    fx.eventually(() -> assertThat(http.getJson("/ws/v1/node/info").at("/nodeInfo/rmLinkState").asText())
        .isEqualTo("SHUT_DOWN_BY_RM"));
    int seen = rm.heartbeats.size();
    assertThat(http.get("/metrics").body()).contains("bobbin_nm_registered{node=\"" + nm.nodeId() + "\"} 0");
    assertThat(rm.heartbeats).hasSize(seen);
    assertThat(rm.registrations).hasSize(1);
  }

  @Test
  void unregistersWithTheCredentialWhenStoppedGracefully() {
    TestingRm rm = fx.rm();
    NodeManager nm = fx.registeredNm(rm);

    nm.close();

    assertThat(rm.unregistrations).singleElement().returns(nm.nodeId(), UnregisterNodeRequest::nodeId);
    assertThat(rm.credentials).allSatisfy(c -> assertThat(c).isEqualTo(fx.credential()));
  }

  @Test
  void doesNotUnregisterOnceTheRmToldItToShutDown() {
    TestingRm rm = fx.rm();
    NodeManager nm = fx.registeredNm(rm);
    rm.nextAction.set(NodeAction.SHUTDOWN);
    fx.eventually(() -> assertThat(new NmHttp(nm.httpAddress()).getJson("/ws/v1/node/info")
        .at("/nodeInfo/rmLinkState").asText()).isEqualTo("SHUT_DOWN_BY_RM"));

    nm.close();

    assertThat(rm.unregistrations).isEmpty();
  }

  @Test
  void stopsEvenWhenNoRmAnswersItsUnregistration() {
    TestingRm rm = fx.rm();
    NodeManager nm = fx.registeredNm(rm);
    rm.failWithStatus = 503;

    nm.close();

    assertThat(nm.whenTerminated().toCompletableFuture()).succeedsWithin(java.time.Duration.ofSeconds(10));
    assertThat(rm.unregistrations).isEmpty();
  }

  /** An address nothing listens on: connections are refused. */
  private static String deadAddress() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return "http://127.0.0.1:" + s.getLocalPort();
    }
  }
}
