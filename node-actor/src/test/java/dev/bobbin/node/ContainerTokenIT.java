package dev.bobbin.node;

import static dev.bobbin.node.NmFixture.containerId;
import static dev.bobbin.node.NmFixture.newApplicationId;
import static dev.bobbin.node.NmFixture.startRequest;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.Tokens;
import dev.bobbin.protocol.WirePaths;
import dev.bobbin.protocol.node.ContainerManagement.FailedRequest;
import dev.bobbin.protocol.node.ContainerManagement.StartContainersResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A start is refused, and nothing runs, unless the RM's token for this node and container is valid. */
class ContainerTokenIT {
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
  void forgedTokenIsRefused() {
    String id = containerId(newApplicationId(), 1);
    byte[] otherKey = new byte[32];
    otherKey[0] = 1;
    String forged = Tokens.containerToken(new Tokens.ContainerTokenIdentifier(
        id, nm.nodeId(), "alice", Resource.of(256, 1), System.currentTimeMillis() + 60_000, 1, TestingRm.KEY_ID),
        otherKey);
    assertRefused(id, forged, "signature");
  }

  @Test
  void garbledTokenIsRefused() {
    String id = containerId(newApplicationId(), 1);
    String good = rm.containerToken(id, nm.nodeId());
    assertRefused(null, "x" + good.substring(1), "Invalid container token");
    assertRefused(null, "not-a-token", "Invalid container token");
  }

  @Test
  void tokenForAnotherNodeIsRefused() {
    String id = containerId(newApplicationId(), 1);
    assertRefused(id, rm.containerToken(id, "127.0.0.1:1"), "not valid for current Node manager");
  }

  @Test
  void expiredTokenIsRefused() {
    String id = containerId(newApplicationId(), 1);
    String expired = rm.containerToken(id, nm.nodeId(), "alice", Resource.of(256, 1), System.currentTimeMillis() - 1);
    assertRefused(id, expired, "expired");
  }

  @Test
  void secondStartOfTheSameContainerIsRefused() {
    String id = containerId(newApplicationId(), 1);
    String token = rm.containerToken(id, nm.nodeId());
    assertThat(http.start(startRequest(token, "echo once >> <LOG_DIR>/count")).succeeded()).containsExactly(id);

    StartContainersResponse again = http.start(startRequest(token, "echo twice >> <LOG_DIR>/count"));
    assertThat(again.succeeded()).isEmpty();
    assertThat(again.failed()).singleElement().satisfies(f -> {
      assertThat(f.containerId()).isEqualTo(id);
      assertThat(f.message()).contains("already");
    });
    fx.eventually(() -> assertThat(http.get(WirePaths.NM_CONTAINERS + "/" + id + "/logs/count").body())
        .isEqualTo("once\n"));
  }

  @Test
  void stopWithAForgedTokenStopsNothing() {
    String id = containerId(newApplicationId(), 1);
    fx.startOne(http, rm, nm, id, "sleep 600");
    String forged = Tokens.containerToken(new Tokens.ContainerTokenIdentifier(
        id, nm.nodeId(), "alice", Resource.of(256, 1), System.currentTimeMillis() + 60_000, 1, TestingRm.KEY_ID),
        new byte[32]);
    var stop = http.stop(NmFixture.stopRequest(forged));
    assertThat(stop.succeeded()).isEmpty();
    assertThat(stop.failed()).singleElement().returns("InvalidToken", FailedRequest::exception);
    assertThat(http.getJson(WirePaths.NM_CONTAINERS + "/" + id).get("container").get("state").asText())
        .isIn("NEW", "RUNNING");
    http.stop(NmFixture.stopRequest(rm.containerToken(id, nm.nodeId())));
  }

  private static void assertRefused(String containerId, String token, String messagePart) {
    StartContainersResponse resp = http.start(startRequest(token, "echo should-not-run"));
    assertThat(resp.succeeded()).isEmpty();
    assertThat(resp.failed()).singleElement().satisfies(f -> {
      assertThat(f.exception()).isEqualTo("InvalidToken");
      assertThat(f.message()).contains(messagePart);
      if (containerId != null) assertThat(f.containerId()).isEqualTo(containerId);
    });
    if (containerId != null) {
      assertThat(http.get(WirePaths.NM_CONTAINERS + "/" + containerId).statusCode()).isEqualTo(404);
      assertThat(dirsNamed(containerId)).isZero();
    }
  }

  private static long dirsNamed(String containerId) {
    try (Stream<Path> s = Files.find(workDir, 10, (p, a) -> p.getFileName().toString().equals(containerId))) {
      return s.count();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
