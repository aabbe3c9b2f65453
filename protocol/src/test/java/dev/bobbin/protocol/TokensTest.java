package dev.bobbin.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TokensTest {
  private static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
  private static final Tokens.ContainerTokenIdentifier ID = new Tokens.ContainerTokenIdentifier(
      "container_1_0001_01_000002", "h:8042", "alice", new Resource(1024, 2), 1_700_000_000_000L, 42);

  @Test
  void aSignedContainerTokenVerifiesToItsIdentifier() {
    assertThat(Tokens.verifyContainerToken(Tokens.containerToken(ID, KEY), KEY)).isEqualTo(ID);
  }

  @Test
  void anotherKeyOrAnEditedTokenIsRefused() {
    String token = Tokens.containerToken(ID, KEY);
    byte[] other = "fedcba9876543210fedcba9876543210".getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> Tokens.verifyContainerToken(token, other))
        .isInstanceOf(Tokens.InvalidTokenException.class).hasMessageContaining("signature");
    String forged = Tokens.containerToken(new Tokens.ContainerTokenIdentifier(ID.containerId(), ID.nodeId(),
        ID.user(), new Resource(65536, 64), ID.expiryTimeMs(), 42), other);
    String spliced = forged.substring(0, forged.indexOf('.')) + token.substring(token.indexOf('.'));
    assertThatThrownBy(() -> Tokens.verifyContainerToken(spliced, KEY)).isInstanceOf(Tokens.InvalidTokenException.class);
    assertThatThrownBy(() -> Tokens.verifyContainerToken("garbage", KEY)).isInstanceOf(Tokens.InvalidTokenException.class);
    assertThatThrownBy(() -> Tokens.verifyContainerToken(null, KEY)).isInstanceOf(Tokens.InvalidTokenException.class);
  }

  @Test
  void eachSignatureUsesTheKeyItIsGivenEvenWhenOneThreadSwitchesKeys() {
    byte[] other = "fedcba9876543210fedcba9876543210".getBytes(StandardCharsets.UTF_8);
    String withKey = Tokens.containerToken(ID, KEY);
    String withOther = Tokens.containerToken(ID, other);
    assertThat(withOther).isNotEqualTo(withKey);
    assertThat(Tokens.verifyContainerToken(withKey, KEY)).isEqualTo(ID);
    assertThat(Tokens.verifyContainerToken(withOther, other)).isEqualTo(ID);
    // A caller that refills the same array with another key gets signatures with the new key.
    byte[] reused = KEY.clone();
    assertThat(Tokens.containerToken(ID, reused)).isEqualTo(withKey);
    System.arraycopy(other, 0, reused, 0, other.length);
    assertThat(Tokens.containerToken(ID, reused)).isEqualTo(withOther);
  }

  @Test
  void amTokensNameTheirAttemptKeyAndEpoch() {
    var id = new Tokens.AmTokenIdentifier("appattempt_1_0001_000001", "bob", 9, 4);
    assertThat(Tokens.verifyAmToken(Tokens.amToken(id, KEY), KEY)).isEqualTo(id);
  }

  @Test
  void aTokenIsCheckedWithTheKeyItNamesAndRefusedWhenThatKeyIsNotHeld() {
    byte[] other = "fedcba9876543210fedcba9876543210".getBytes(StandardCharsets.UTF_8);
    var signedBy3 = new Tokens.ContainerTokenIdentifier(ID.containerId(), ID.nodeId(), ID.user(), ID.resource(),
        ID.expiryTimeMs(), 42, 3);
    String token = Tokens.containerToken(signedBy3, KEY);
    Map<Integer, byte[]> keys = Map.of(3, KEY, 4, other);

    assertThat(Tokens.verifyContainerToken(token, keys::get)).isEqualTo(signedBy3);
    assertThatThrownBy(() -> Tokens.verifyContainerToken(token, Map.of(4, other)::get))
        .isInstanceOfSatisfying(Tokens.UnknownKeyException.class, e -> assertThat(e.keyId()).isEqualTo(3))
        .hasMessageContaining("Unknown or retired key 3");
    // Claiming another key id does not help a token signed with a key the verifier holds under another id.
    String relabelled = Tokens.containerToken(new Tokens.ContainerTokenIdentifier(ID.containerId(), ID.nodeId(),
        ID.user(), ID.resource(), ID.expiryTimeMs(), 42, 4), KEY);
    assertThatThrownBy(() -> Tokens.verifyContainerToken(relabelled, keys::get))
        .isInstanceOf(Tokens.InvalidTokenException.class).hasMessageContaining("signature");
    var am = new Tokens.AmTokenIdentifier("appattempt_1_0001_000001", "bob", 4, 1);
    assertThat(Tokens.verifyAmToken(Tokens.amToken(am, other), keys::get)).isEqualTo(am);
    assertThatThrownBy(() -> Tokens.verifyAmToken(Tokens.amToken(am, KEY), keys::get))
        .isInstanceOf(Tokens.InvalidTokenException.class);
  }

  @Test
  void aContainerTokenIsNotAnAmTokenNorTheOtherWayRound() {
    String container = Tokens.containerToken(ID, KEY);
    String am = Tokens.amToken(new Tokens.AmTokenIdentifier("appattempt_1_0001_000001", "bob", 0, 1), KEY);
    assertThatThrownBy(() -> Tokens.verifyAmToken(container, KEY)).hasMessageContaining("Malformed AM token");
    assertThatThrownBy(() -> Tokens.verifyContainerToken(am, KEY)).hasMessageContaining("Malformed container token");
  }

  @Test
  void resourcesUseYarnsJsonNames() throws Exception {
    String json = WireJson.mapper().writeValueAsString(new Resource(2048, 3));
    assertThat(json).isEqualTo("{\"memory\":2048,\"vCores\":3}");
    assertThat(WireJson.mapper().readValue(json, Resource.class)).isEqualTo(new Resource(2048, 3));
  }
}
