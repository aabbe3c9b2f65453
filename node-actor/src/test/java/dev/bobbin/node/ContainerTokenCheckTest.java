package dev.bobbin.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.node.ContainerTokenCheck.Refused;
import dev.bobbin.node.ContainerTokenCheck.Valid;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.Tokens;
import org.junit.jupiter.api.Test;

class ContainerTokenCheckTest {
  static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes();
  static final String NODE = "h:8042";
  static final String CID = "container_1_0001_01_000001";

  static String token(String containerId, String node, long expiry, byte[] key) {
    return Tokens.containerToken(
        new Tokens.ContainerTokenIdentifier(containerId, node, "alice", Resource.of(1, 1), expiry, 7), key);
  }

  @Test
  void acceptsAValidToken() {
    assertThat(ContainerTokenCheck.forStart(token(CID, NODE, 2000, KEY), KEY, NODE, 1000))
        .isInstanceOfSatisfying(Valid.class, v -> assertThat(v.identifier().containerId()).isEqualTo(CID));
  }

  @Test
  void refusesForgedWrongNodeExpiredAndMalformed() {
    assertRefused(ContainerTokenCheck.forStart(token(CID, NODE, 2000, new byte[32]), KEY, NODE, 1000), "signature", CID);
    assertRefused(ContainerTokenCheck.forStart(token(CID, "other:1", 2000, KEY), KEY, NODE, 1000), "other:1", CID);
    assertRefused(ContainerTokenCheck.forStart(token(CID, NODE, 999, KEY), KEY, NODE, 1000), "expired", CID);
    assertRefused(ContainerTokenCheck.forStart(token("bogus", NODE, 2000, KEY), KEY, NODE, 1000), "Invalid container id", "bogus");
    assertRefused(ContainerTokenCheck.forStart(null, KEY, NODE, 1000), "No token", null);
    assertRefused(ContainerTokenCheck.forStart("%%%.%%%", KEY, NODE, 1000), "Malformed", null);
  }

  @Test
  void expiryDoesNotMatterForManagingARunningContainer() {
    assertThat(ContainerTokenCheck.forManagement(token(CID, NODE, 1, KEY), KEY, NODE)).isInstanceOf(Valid.class);
  }

  private static void assertRefused(ContainerTokenCheck.Verdict v, String messagePart, String containerId) {
    assertThat(v).isInstanceOfSatisfying(Refused.class, r -> {
      assertThat(r.failure().exception()).isEqualTo("InvalidToken");
      assertThat(r.failure().message()).contains(messagePart);
      assertThat(r.failure().containerId()).isEqualTo(containerId);
    });
  }
}
