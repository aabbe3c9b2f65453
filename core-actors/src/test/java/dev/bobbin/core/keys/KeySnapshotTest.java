package dev.bobbin.core.keys;

import static dev.bobbin.core.keys.KeyFixtures.S;
import static dev.bobbin.core.keys.KeyFixtures.SCHEDULES;
import static dev.bobbin.core.keys.KeyFixtures.T0;
import static dev.bobbin.core.keys.KeyFixtures.secret;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.Tokens;
import dev.bobbin.protocol.node.ContainerTokenKey;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A member's copy of the ring: container tokens of the previous key verify during the overlap and
 * not after it, and NodeManagers are handed container-token keys only, never one that signs AM
 * tokens.
 */
class KeySnapshotTest {
  /** Container keys 1 (from T0) and 3 (from 100 s), AM key 2 (from T0). */
  private static final KeyRing RING = KeyRing.EMPTY
      .withKey(new MasterKey(1, KeyPurpose.CONTAINER_TOKEN, secret("c1"), T0))
      .withKey(new MasterKey(2, KeyPurpose.AM_TOKEN, secret("am2"), T0))
      .withKey(new MasterKey(3, KeyPurpose.CONTAINER_TOKEN, secret("c3"), T0 + 100 * S));

  private static String containerToken(KeySnapshot s, long now) {
    SigningKeys.SigningKey key = s.signing(KeyPurpose.CONTAINER_TOKEN, now);
    return Tokens.containerToken(new Tokens.ContainerTokenIdentifier("container_1_0001_01_000002", "h:1", "alice",
        Resource.of(1024, 1), now + 30 * S, 1, key.id()), key.secret());
  }

  @Test
  void aContainerTokenOfThePreviousKeyVerifiesDuringTheOverlapAndIsRefusedOnceItRetired() {
    KeySnapshot s = new KeySnapshot(RING, SCHEDULES);
    String previous = containerToken(s, T0 + 99 * S);
    String next = containerToken(s, T0 + 100 * S);
    assertThat(Tokens.verifyContainerToken(previous, s.verifying(KeyPurpose.CONTAINER_TOKEN, T0 + 99 * S)).keyId())
        .isEqualTo(1);
    assertThat(Tokens.verifyContainerToken(next, s.verifying(KeyPurpose.CONTAINER_TOKEN, T0 + 100 * S)).keyId())
        .isEqualTo(3);

    // The overlap: 30 s after key 3 started signing.
    assertThat(Tokens.verifyContainerToken(previous, s.verifying(KeyPurpose.CONTAINER_TOKEN, T0 + 129 * S)).keyId())
        .isEqualTo(1);
    assertThatThrownBy(() -> Tokens.verifyContainerToken(previous, s.verifying(KeyPurpose.CONTAINER_TOKEN, T0 + 130 * S)))
        .isInstanceOf(Tokens.UnknownKeyException.class).hasMessageContaining("key 1");
  }

  @Test
  void nodesAreHandedContainerTokenKeysOnlyWithWhenTheyRetire() {
    KeySnapshot s = new KeySnapshot(RING, SCHEDULES);

    assertThat(s.forNodes(T0 + 90 * S)).extracting(ContainerTokenKey::keyId).containsExactly(1, 3);
    assertThat(s.forNodes(T0 + 90 * S).get(0).retiresAtMs()).isEqualTo(T0 + 130 * S);
    assertThat(s.forNodes(T0 + 130 * S)).extracting(ContainerTokenKey::keyId).containsExactly(3);
    assertThat(s.newestContainerKeyId()).isEqualTo(3);

    // No key a node holds checks an AM token, so no node can make one.
    SigningKeys.SigningKey am = s.signing(KeyPurpose.AM_TOKEN, T0);
    String amToken = Tokens.amToken(new Tokens.AmTokenIdentifier("appattempt_1_0001_000001", "alice", am.id(), 1),
        am.secret());
    List<ContainerTokenKey> handed = s.forNodes(T0);
    assertThatThrownBy(() -> Tokens.verifyAmToken(amToken, id -> handed.stream().filter(k -> k.keyId() == id)
        .findFirst().map(k -> Tokens.decodeKey(k.key())).orElse(null)))
        .isInstanceOf(Tokens.UnknownKeyException.class);
    assertThatThrownBy(() -> Tokens.verifyAmToken(amToken, s.verifying(KeyPurpose.CONTAINER_TOKEN, T0)))
        .isInstanceOf(Tokens.UnknownKeyException.class);
  }
}
