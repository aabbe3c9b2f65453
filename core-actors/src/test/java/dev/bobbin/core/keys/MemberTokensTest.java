package dev.bobbin.core.keys;

import static dev.bobbin.core.keys.KeyFixtures.S;
import static dev.bobbin.core.keys.KeyFixtures.SCHEDULES;
import static dev.bobbin.core.keys.KeyFixtures.T0;
import static dev.bobbin.core.keys.KeyFixtures.secret;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.Tokens;
import dev.bobbin.protocol.Tokens.AmTokenIdentifier;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * AM tokens as a member checks them: signed with an AM-token key that still verifies, and, for a
 * token of an earlier scheduler, only while its attempt is still current; renewed for the AM when
 * an older key or scheduler signed it. Worked in seconds: AM keys roll every 60 s and a replaced
 * one verifies 15 s more; the ring is at scheduler epoch 5.
 */
class MemberTokensTest {
  private static final String ATTEMPT = "appattempt_1700000000000_0001_000001";

  /** Container key 1; AM key 2 (from T0) and AM key 3 (from 60 s). */
  private static final KeyRing RING = KeyRing.EMPTY
      .withKey(new MasterKey(1, KeyPurpose.CONTAINER_TOKEN, secret("c1"), T0))
      .withKey(new MasterKey(2, KeyPurpose.AM_TOKEN, secret("am2"), T0))
      .withKey(new MasterKey(3, KeyPurpose.AM_TOKEN, secret("am3"), T0 + 60 * S))
      .atEpoch(5);

  private final KeyFixtures.SetClock clock = new KeyFixtures.SetClock();
  private final TestingKeys keys = new TestingKeys(new KeySnapshot(RING, SCHEDULES));
  private final MemberTokens tokens = new MemberTokens(keys, clock);
  private final AtomicInteger attemptChecks = new AtomicInteger();

  /** The member's copy, replaced by a test; counts the asks for a fresh one. */
  private static final class TestingKeys implements HeldKeys {
    volatile KeySnapshot snapshot;
    volatile KeySnapshot fresh;
    final AtomicInteger refreshes = new AtomicInteger();

    TestingKeys(KeySnapshot snapshot) {
      this.snapshot = snapshot;
    }

    @Override
    public KeySnapshot held() {
      return snapshot;
    }

    @Override
    public CompletionStage<KeySnapshot> current() {
      return CompletableFuture.completedFuture(snapshot);
    }

    @Override
    public CompletionStage<KeySnapshot> refresh() {
      refreshes.incrementAndGet();
      if (fresh != null) snapshot = fresh;
      return CompletableFuture.completedFuture(snapshot);
    }
  }

  private static String amToken(int keyId, long epoch) {
    String key = RING.keys().stream().filter(k -> k.id() == keyId).findFirst().orElseThrow().secret();
    return Tokens.amToken(new AmTokenIdentifier(ATTEMPT, "alice", keyId, epoch), Tokens.decodeKey(key));
  }

  private AmTokenIdentifier verify(String token, Set<String> currentAttempts) {
    return tokens.verifyAmToken(token, attempt -> {
      attemptChecks.incrementAndGet();
      return CompletableFuture.completedFuture(currentAttempts.contains(attempt));
    }).toCompletableFuture().join();
  }

  private Throwable refusal(String token, Set<String> currentAttempts) {
    try {
      verify(token, currentAttempts);
    } catch (CompletionException e) {
      return e.getCause();
    }
    throw new AssertionError("the token was accepted");
  }

  @BeforeEach
  void at70s() {
    clock.set(T0 + 70 * S);
  }

  @Test
  void aTokenOfTheCurrentSchedulerVerifiesWithoutLookingAtItsAttempt() {
    assertThat(verify(amToken(3, 5), Set.of())).isEqualTo(new AmTokenIdentifier(ATTEMPT, "alice", 3, 5));
    assertThat(attemptChecks).hasValue(0);
    assertThat(tokens.renewedAmToken(new AmTokenIdentifier(ATTEMPT, "alice", 3, 5))).as("nothing to renew").isNull();
  }

  @Test
  void aTokenOfAnEarlierSchedulerVerifiesOnlyWhileItsAttemptIsCurrent() {
    assertThat(verify(amToken(3, 4), Set.of(ATTEMPT)).epoch()).isEqualTo(4);

    assertThat(refusal(amToken(3, 4), Set.of())).isInstanceOf(Tokens.InvalidTokenException.class)
        .hasMessageContaining("issued by scheduler epoch 4").hasMessageContaining("no longer current");
  }

  @Test
  void thePreviousKeyVerifiesDuringTheOverlapThenNotAndItsAmIsHandedATokenOfTheNewKey() {
    clock.set(T0 + 74 * S);
    AmTokenIdentifier old = verify(amToken(2, 5), Set.of());
    assertThat(old.keyId()).isEqualTo(2);
    String renewed = tokens.renewedAmToken(old);
    assertThat(verify(renewed, Set.of())).isEqualTo(new AmTokenIdentifier(ATTEMPT, "alice", 3, 5));
    // An AM whose token an earlier scheduler signed is handed one of the current epoch.
    AmTokenIdentifier earlier = new AmTokenIdentifier(ATTEMPT, "alice", 3, 4);
    assertThat(verify(tokens.renewedAmToken(earlier), Set.of()).epoch()).isEqualTo(5);

    clock.set(T0 + 75 * S);
    assertThat(refusal(amToken(2, 5), Set.of(ATTEMPT))).isInstanceOf(Tokens.UnknownKeyException.class)
        .hasMessageContaining("key 2");
  }

  @Test
  void aTokenNamingAKeyNewerThanTheCopyIsCheckedAgainstAFreshOne() {
    keys.snapshot = new KeySnapshot(KeyRing.EMPTY
        .withKey(RING.keys().get(0)).withKey(RING.keys().get(1)).atEpoch(5), SCHEDULES);
    keys.fresh = new KeySnapshot(RING, SCHEDULES);

    assertThat(verify(amToken(3, 5), Set.of()).keyId()).isEqualTo(3);
    assertThat(keys.refreshes).hasValue(1);
    // A container-token key never checks an AM token.
    String forged = Tokens.amToken(new AmTokenIdentifier(ATTEMPT, "alice", 1, 5), Tokens.decodeKey(secret("c1")));
    assertThat(refusal(forged, Set.of(ATTEMPT))).isInstanceOf(Tokens.UnknownKeyException.class);
  }
}
