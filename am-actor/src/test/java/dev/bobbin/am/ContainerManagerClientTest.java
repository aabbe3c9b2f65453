package dev.bobbin.am;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.ContainerState;
import dev.bobbin.protocol.Ids;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.Tokens;
import dev.bobbin.protocol.am.Container;
import dev.bobbin.protocol.client.BobbinHttp;
import dev.bobbin.protocol.client.ContainerManagerClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** How an AM starts, queries and stops its containers, against a NodeManager that checks container tokens. */
class ContainerManagerClientTest {
  private final ContainerManagerClient client =
      new ContainerManagerClient(BobbinHttp.builder().requestTimeout(Duration.ofSeconds(5)).build());

  @Test
  void startsStopsAndQueriesAContainerWithItsToken() throws Exception {
    try (TestingNm nm = new TestingNm(TestingRm.SECRET, (id, launch) -> {})) {
      Container c = container(nm, 2, TestingRm.SECRET);
      var launch = new ContainerLaunchContext(List.of("sleep 1"), Map.of("A", "b"));

      assertThat(client.startContainer(c, launch).join()).isEqualTo(c.id());
      assertThat(nm.started).containsEntry(c.id(), launch);
      assertThat(client.getContainerStatus(c).join().state()).isEqualTo(ContainerState.RUNNING);
      assertThat(client.stopContainer(c).join()).isEqualTo(c.id());
      assertThat(nm.stopped).containsExactly(c.id());
    }
  }

  @Test
  void aRefusedStartFailsWithTheNodeManagersReason() throws Exception {
    try (TestingNm nm = new TestingNm(TestingRm.SECRET, (id, launch) -> {})) {
      Container forged = container(nm, 3, "not the secret".getBytes());
      assertThatThrownBy(() -> client.startContainer(forged, new ContainerLaunchContext(List.of("true"), Map.of()))
              .join())
          .isInstanceOf(CompletionException.class)
          .cause().isInstanceOf(ContainerManagerClient.RefusedException.class).hasMessageContaining("InvalidToken");
      assertThat(nm.started).isEmpty();
    }
  }

  private static Container container(TestingNm nm, long seq, byte[] secret) {
    String id = Ids.containerId(TestingRm.ATTEMPT_ID, 0, seq);
    Resource r = Resource.of(256, 1);
    String token = Tokens.containerToken(
        new Tokens.ContainerTokenIdentifier(id, "127.0.0.1:45454", "alice", r, Long.MAX_VALUE, 1), secret);
    return new Container(id, "127.0.0.1:45454", nm.httpAddress(), r, 1, token, -1);
  }
}
