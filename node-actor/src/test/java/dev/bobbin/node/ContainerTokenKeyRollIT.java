package dev.bobbin.node;

import static dev.bobbin.node.NmFixture.containerId;
import static dev.bobbin.node.NmFixture.newApplicationId;
import static dev.bobbin.node.NmFixture.startRequest;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.Tokens;
import dev.bobbin.protocol.WirePaths;
import dev.bobbin.protocol.node.ContainerManagement.StartContainersResponse;
import dev.bobbin.protocol.node.ContainerTokenKey;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The RM rolls its container-token key: the node hears of the next key in a heartbeat, starts
 * containers with tokens of the previous key until that one retires, and refuses them after; a
 * running container is still stopped with its token after its key retired.
 */
class ContainerTokenKeyRollIT {
  private static final int NEXT_ID = 3;
  @TempDir Path workDir;
  NmFixture fx;
  TestingRm rm;
  NodeManager nm;
  NmHttp http;
  final byte[] next = new byte[32];

  @BeforeEach
  void setUp() {
    fx = new NmFixture(workDir);
    rm = fx.rm();
    nm = fx.registeredNm(rm);
    http = new NmHttp(nm.httpAddress());
    new SecureRandom().nextBytes(next);
  }

  @AfterEach
  void tearDown() {
    fx.close();
  }

  /** Hands out the first key, retiring at {@code retiresAtMs}, and the next one; waits until the node has them. */
  private void roll(long retiresAtMs) {
    rm.keys.set(List.of(
        new ContainerTokenKey(TestingRm.KEY_ID, Tokens.encodeKey(rm.key), 0, retiresAtMs),
        new ContainerTokenKey(NEXT_ID, Tokens.encodeKey(next), System.currentTimeMillis(), 0)));
    int seen = rm.heartbeats.size();
    fx.eventually(() -> assertThat(rm.heartbeats.subList(seen, rm.heartbeats.size()))
        .anySatisfy(h -> assertThat(h.lastKnownContainerTokenKeyId()).isEqualTo(NEXT_ID)));
  }

  @Test
  void duringTheOverlapTokensOfThePreviousKeyAndOfTheNextStartContainers() {
    String before = containerId(newApplicationId(), 1);
    String beforeToken = rm.containerToken(before, nm.nodeId());
    String after = containerId(newApplicationId(), 1);
    String nextToken = rm.containerToken(after, nm.nodeId(), NEXT_ID, next);
    assertRefused(http.start(startRequest(nextToken, "sleep 600")), "Unknown or retired key " + NEXT_ID);

    roll(System.currentTimeMillis() + 600_000);

    assertThat(http.start(startRequest(beforeToken, "sleep 600")).succeeded()).containsExactly(before);
    assertThat(http.start(startRequest(rm.containerToken(after, nm.nodeId(), NEXT_ID, next), "sleep 600"))
        .succeeded()).containsExactly(after);
    http.stop(NmFixture.stopRequest(beforeToken));
    http.stop(NmFixture.stopRequest(nextToken));
  }

  @Test
  void aTokenOfARetiredKeyStartsNothingButStillStopsItsRunningContainer() {
    String running = containerId(newApplicationId(), 1);
    String runningToken = rm.containerToken(running, nm.nodeId());
    assertThat(http.start(startRequest(runningToken, "sleep 600")).succeeded()).containsExactly(running);

    // The RM retired the first key: its tokens have all expired.
    roll(System.currentTimeMillis() - 1);

    String late = containerId(newApplicationId(), 1);
    assertRefused(http.start(startRequest(rm.containerToken(late, nm.nodeId()), "echo should-not-run")),
        "Unknown or retired key " + TestingRm.KEY_ID);
    assertThat(http.get(WirePaths.NM_CONTAINERS + "/" + late).statusCode()).isEqualTo(404);
    assertThat(http.stop(NmFixture.stopRequest(runningToken)).succeeded()).containsExactly(running);
  }

  private static void assertRefused(StartContainersResponse resp, String messagePart) {
    assertThat(resp.succeeded()).isEmpty();
    assertThat(resp.failed()).singleElement().satisfies(f -> {
      assertThat(f.exception()).isEqualTo("InvalidToken");
      assertThat(f.message()).contains(messagePart);
    });
  }
}
