package dev.bobbin.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.Tokens;
import dev.bobbin.protocol.node.ContainerTokenKey;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeTokenKeysTest {
  private static final byte[] ONE = "one-one-one-one-one-one-one-one!".getBytes(StandardCharsets.UTF_8);
  private static final byte[] TWO = "two-two-two-two-two-two-two-two!".getBytes(StandardCharsets.UTF_8);

  private static ContainerTokenKey key(int id, byte[] secret, long retiresAtMs) {
    return new ContainerTokenKey(id, Tokens.encodeKey(secret), 0, retiresAtMs);
  }

  @Test
  void thePreviousKeyStartsContainersUntilItRetiresAndTheNextOneFromWhenItIsHandedOut() {
    NodeTokenKeys keys = NodeTokenKeys.NONE.handedOut(List.of(key(1, ONE, 0)))
        .handedOut(List.of(key(1, ONE, 5_000), key(2, TWO, 0)));

    assertThat(keys.newestKeyId()).isEqualTo(2);
    assertThat(keys.forStart(4_999).key(1)).isEqualTo(ONE);
    assertThat(keys.forStart(4_999).key(2)).isEqualTo(TWO);
    assertThat(keys.forStart(5_000).key(1)).as("retired").isNull();
    assertThat(keys.forStart(5_000).key(7)).as("never heard of").isNull();
  }

  @Test
  void aKeyTheRmNoLongerHandsOutStartsNothingButStillManagesRunningContainers() {
    NodeTokenKeys keys = NodeTokenKeys.NONE.handedOut(List.of(key(1, ONE, 0), key(2, TWO, 0)))
        .handedOut(List.of(key(2, TWO, 0)));

    assertThat(keys.forStart(0).key(1)).isNull();
    assertThat(keys.forManagement().key(1)).isEqualTo(ONE);
    assertThat(keys.forManagement().key(2)).isEqualTo(TWO);
  }

  @Test
  void aKeyThatDoesNotDecodeIsLeftOutAndOnlyTheLatestKeysAreRemembered() {
    NodeTokenKeys bad = NodeTokenKeys.NONE.handedOut(List.of(new ContainerTokenKey(1, "%%%", 0, 0)));
    assertThat(bad.isEmpty()).isTrue();
    assertThat(bad.newestKeyId()).isZero();

    NodeTokenKeys keys = NodeTokenKeys.NONE;
    List<Integer> ids = new ArrayList<>();
    for (int id = 1; id <= NodeTokenKeys.REMEMBERED + 2; id++) {
      keys = keys.handedOut(List.of(key(id, ONE, 0)));
      ids.add(id);
    }
    assertThat(keys.forManagement().key(1)).isNull();
    assertThat(keys.forManagement().key(2)).isNull();
    assertThat(keys.forManagement().key(3)).isEqualTo(ONE);
    assertThat(keys.currentIds()).containsExactly(ids.get(ids.size() - 1));
  }
}
