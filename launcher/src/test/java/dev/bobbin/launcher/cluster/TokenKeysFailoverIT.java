package dev.bobbin.launcher.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.config.NodeCredential;
import dev.bobbin.launcher.Http;
import dev.bobbin.pg.EmbeddedPostgres;
import dev.bobbin.protocol.NodeAction;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.Tokens;
import dev.bobbin.protocol.client.BobbinHttp;
import dev.bobbin.protocol.client.Credentials;
import dev.bobbin.protocol.client.ResourceTrackerClient;
import dev.bobbin.protocol.node.ContainerTokenKey;
import dev.bobbin.protocol.node.NodeHeartbeatRequest;
import dev.bobbin.protocol.node.NodeHeartbeatResponse;
import dev.bobbin.protocol.node.RegisterNodeRequest;
import dev.bobbin.protocol.node.RegisterNodeResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The token keys live in the journal, not in a member: two members whose container-token key rolls
 * every few seconds; after a roll the oldest member (which runs the keys' singleton) is killed with
 * kill -9, and the survivor hands a NodeManager the very keys the dead member handed it, so that
 * the container tokens signed before the failure, with the replaced key and with the new one, still
 * verify. The members are placed as {@link RmProcess#pair} says.
 */
class TokenKeysFailoverIT {
  private static final Duration START = Duration.ofSeconds(60);
  private static final Duration JOIN = Duration.ofSeconds(45);
  private static final String NODE = "127.0.0.1:45001";
  private final List<RmProcess> members = new ArrayList<>();
  private EmbeddedPostgres pg;

  @AfterEach
  void stop() {
    members.forEach(RmProcess::kill);
    RmProcess.keepLogs(members, "tokenKeysFailover");
    if (pg != null) pg.close();
  }

  @Test
  void aKeyRollThenKillNineOfTheMemberThatMadeItLeavesEveryKeyOnTheSurvivor(@TempDir Path dir) throws Exception {
    pg = EmbeddedPostgres.start();
    // A key every 8 s, handed out 3 s before it signs.
    members.addAll(RmProcess.pair(dir,
        "bobbin.rm.container-tokens { master-key-rolling-interval = 8s, master-key-activation-delay = 3s }",
        pg.createDatabase()));
    RmProcess.startInOrder(members.get(0), members.get(1), START, JOIN);
    ResourceTrackerClient node = new ResourceTrackerClient(BobbinHttp.builder().requestTimeout(RmProcess.REQUEST)
        .credentials(Credentials.nodeCredential(
            NodeCredential.read(dir.resolve(NodeCredential.FILE_NAME), "test"))).build());
    RmProcess rm1 = members.get(0);
    RmProcess rm2 = members.get(1);

    // The node follows rm-1's heartbeats until it has been handed the next container-token key.
    Map<Integer, String> before = new TreeMap<>();
    RegisterNodeResponse registered = BobbinHttp.await(node.register(rm1.url(), registration()));
    assertThat(registered.nodeAction()).isEqualTo(NodeAction.NORMAL);
    registered.containerTokenKeys().forEach(k -> before.put(k.keyId(), k.key()));
    AtomicReference<Integer> responseId = new AtomicReference<>(0);
    Http.await(Duration.ofSeconds(30), "a container-token key roll", () -> {
      NodeHeartbeatResponse hb = BobbinHttp.await(node.heartbeat(rm1.url(), new NodeHeartbeatRequest(NODE,
          responseId.get(), List.of(), true, "", before.keySet().stream().mapToInt(i -> i).max().orElse(0))));
      responseId.set(hb.responseId());
      hb.containerTokenKeys().forEach(k -> before.put(k.keyId(), k.key()));
      return before.size() >= 2;
    });
    List<String> tokens = new ArrayList<>();
    before.forEach((id, key) -> tokens.add(Tokens.containerToken(new Tokens.ContainerTokenIdentifier(
        "container_1_0001_01_00000" + id, NODE, "alice", Resource.of(1024, 1), System.currentTimeMillis() + 600_000,
        1, id), Tokens.decodeKey(key))));

    rm1.process().destroyForcibly();
    assertThat(rm1.awaitExit(Duration.ofSeconds(10))).as("killed by SIGKILL").isEqualTo(137);

    // The node re-registers with the survivor once the dead member's shards have moved.
    AtomicReference<List<ContainerTokenKey>> after = new AtomicReference<>();
    Http.await(Duration.ofSeconds(60), "the node's registration with rm-2", () -> {
      RegisterNodeResponse r = BobbinHttp.await(node.register(rm2.url(), registration()));
      after.set(r.containerTokenKeys());
      return r.nodeAction() == NodeAction.NORMAL;
    });
    Map<Integer, String> survivor = new TreeMap<>();
    after.get().forEach(k -> survivor.put(k.keyId(), k.key()));
    assertThat(survivor).as("every key handed out before the failure, with its secret").containsAllEntriesOf(before);
    for (String token : tokens) {
      assertThat(Tokens.verifyContainerToken(token, id -> survivor.containsKey(id)
          ? Tokens.decodeKey(survivor.get(id)) : null).nodeId()).isEqualTo(NODE);
    }
    System.out.println("TokenKeysFailoverIT: keys " + before.keySet() + " before the kill -9, " + survivor.keySet()
        + " from the survivor");
  }

  private static RegisterNodeRequest registration() {
    return new RegisterNodeRequest(NODE, "127.0.0.1", 45001, NODE, "/rack-a", Resource.of(4096, 4), List.of(),
        List.of(), "it");
  }
}
