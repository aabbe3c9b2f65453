package dev.bobbin.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.Tokens;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class EpochFencingTest {
  private static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);

  private static String token(long epoch) {
    return Tokens.containerToken(new Tokens.ContainerTokenIdentifier("container_e" + epoch + "_1_0001_01_000002",
        "h:1", "alice", new Resource(1024, 1), Long.MAX_VALUE, epoch), KEY);
  }

  @Test
  void aTokenOfASchedulerOlderThanTheOneTheNodeFollowsIsRefused() {
    var verdict = ContainerTokenCheck.forStart(token(3), KEY, "h:1", 0, 4);
    assertThat(verdict).isInstanceOf(ContainerTokenCheck.Refused.class);
    assertThat(((ContainerTokenCheck.Refused) verdict).failure().message()).contains("epoch 3").contains("epoch 4");
  }

  @Test
  void currentAndNewerEpochsAreAccepted() {
    assertThat(ContainerTokenCheck.forStart(token(4), KEY, "h:1", 0, 4)).isInstanceOf(ContainerTokenCheck.Valid.class);
    assertThat(ContainerTokenCheck.forStart(token(5), KEY, "h:1", 0, 4)).isInstanceOf(ContainerTokenCheck.Valid.class);
  }
}
