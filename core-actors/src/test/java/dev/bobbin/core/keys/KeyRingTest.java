package dev.bobbin.core.keys;

import static dev.bobbin.core.keys.KeyFixtures.S;
import static dev.bobbin.core.keys.KeyFixtures.SCHEDULES;
import static dev.bobbin.core.keys.KeyFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The key schedule, worked in seconds on {@link KeyFixtures}' schedule. */
class KeyRingTest {
  private static final KeySchedule CONTAINER = SCHEDULES.get(KeyPurpose.CONTAINER_TOKEN);

  private final AtomicInteger made = new AtomicInteger();
  private final Supplier<String> secrets = () -> "secret-" + made.incrementAndGet();

  /** The ring after what is due at {@code now}, as the keys' entity applies it. */
  private KeyRing rolled(KeyRing ring, long now) {
    KeyRing.Roll roll = ring.due(now, SCHEDULES, secrets);
    for (MasterKey k : roll.made()) ring = ring.withKey(k);
    for (int id : roll.retired()) ring = ring.withoutKey(id);
    return ring;
  }

  @Test
  void anEmptyRingGetsAKeyOfEachPurposeThatSignsAtOnceWithIdsUniqueAcrossPurposes() {
    KeyRing ring = rolled(KeyRing.EMPTY, T0);

    assertThat(ring.keys()).extracting(MasterKey::id, MasterKey::purpose, MasterKey::activatesAtMs).containsExactly(
        org.assertj.core.groups.Tuple.tuple(1, KeyPurpose.CONTAINER_TOKEN, T0),
        org.assertj.core.groups.Tuple.tuple(2, KeyPurpose.AM_TOKEN, T0));
    assertThat(ring.signing(KeyPurpose.CONTAINER_TOKEN, T0)).get().extracting(MasterKey::id).isEqualTo(1);
    assertThat(ring.signing(KeyPurpose.AM_TOKEN, T0)).get().extracting(MasterKey::id).isEqualTo(2);
    assertThat(ring.due(T0 + 10 * S, SCHEDULES, secrets).isEmpty()).as("nothing more is due yet").isTrue();
  }

  @Test
  void theNextContainerKeyIsMadeAnActivationDelayBeforeItSignsAndThePreviousVerifiesForTheOverlap() {
    KeyRing ring = rolled(KeyRing.EMPTY, T0);
    // At 79 s nothing; at 80 s (100 - 20) the next key is made, to sign from 100 s.
    assertThat(ring.due(T0 + 79 * S, SCHEDULES, secrets).made()).noneMatch(k -> k.purpose() == KeyPurpose.CONTAINER_TOKEN);
    ring = rolled(ring, T0 + 80 * S);
    MasterKey first = ring.of(KeyPurpose.CONTAINER_TOKEN).get(0);
    MasterKey next = ring.of(KeyPurpose.CONTAINER_TOKEN).get(1);
    assertThat(next.activatesAtMs()).isEqualTo(T0 + 100 * S);
    assertThat(ring.signing(KeyPurpose.CONTAINER_TOKEN, T0 + 99 * S)).contains(first);
    assertThat(ring.signing(KeyPurpose.CONTAINER_TOKEN, T0 + 100 * S)).contains(next);
    // The replaced key verifies until 30 s after its successor signs (130 s), then not.
    assertThat(ring.retiresAt(first, CONTAINER)).isEqualTo(T0 + 130 * S);
    assertThat(ring.verifies(first, T0 + 129 * S, CONTAINER)).isTrue();
    assertThat(ring.verifies(first, T0 + 130 * S, CONTAINER)).isFalse();
    assertThat(ring.retiresAt(next, CONTAINER)).as("no successor yet").isZero();
    assertThat(ring.verifies(next, T0 + 80 * S, CONTAINER)).as("verifies as soon as it is made").isTrue();
    // At 130 s it leaves the ring.
    assertThat(rolled(ring, T0 + 129 * S).of(KeyPurpose.CONTAINER_TOKEN)).contains(first);
    assertThat(rolled(ring, T0 + 130 * S).of(KeyPurpose.CONTAINER_TOKEN)).doesNotContain(first).contains(next);
  }

  @Test
  void anAmKeyRollsWithoutNoticeAndItsPredecessorVerifiesForTheOverlap() {
    KeyRing ring = rolled(KeyRing.EMPTY, T0);
    MasterKey first = ring.of(KeyPurpose.AM_TOKEN).get(0);
    ring = rolled(ring, T0 + 60 * S);
    MasterKey next = ring.of(KeyPurpose.AM_TOKEN).get(1);
    assertThat(next.activatesAtMs()).isEqualTo(T0 + 60 * S);
    assertThat(ring.signing(KeyPurpose.AM_TOKEN, T0 + 60 * S)).contains(next);
    assertThat(ring.verifies(first, T0 + 74 * S, SCHEDULES.get(KeyPurpose.AM_TOKEN))).isTrue();
    assertThat(ring.verifies(first, T0 + 75 * S, SCHEDULES.get(KeyPurpose.AM_TOKEN))).isFalse();
  }

  @Test
  void afterALongStopTheNextKeyStillGivesItsFullNoticeAndTheReplacedOneRetiresOnlyAfterIt() {
    KeyRing ring = rolled(KeyRing.EMPTY, T0);
    // The cluster was down from 10 s to 1000 s: the next key still signs only 20 s after it is made.
    long back = T0 + 1000 * S;
    ring = rolled(ring, back);
    MasterKey next = ring.of(KeyPurpose.CONTAINER_TOKEN).get(1);
    assertThat(next.activatesAtMs()).isEqualTo(back + 20 * S);
    assertThat(ring.signing(KeyPurpose.CONTAINER_TOKEN, back).get().id()).isEqualTo(1);
    assertThat(ring.of(KeyPurpose.CONTAINER_TOKEN)).hasSize(2);
  }

  @Test
  void changesCountUpAndTheEpochOnlyRises() {
    KeyRing ring = rolled(KeyRing.EMPTY, T0).atEpoch(4);
    long version = ring.version();
    assertThat(ring.atEpoch(3).schedulerEpoch()).isEqualTo(4);
    assertThat(ring.atEpoch(5).schedulerEpoch()).isEqualTo(5);
    assertThat(ring.atEpoch(5).version()).isEqualTo(version + 1);
    assertThat(ring.lastKeyId()).isEqualTo(2);
    assertThat(ring.withoutKey(2).lastKeyId()).as("an id is never handed out twice").isEqualTo(2);
  }

  @Test
  void aKeyPrintsWithoutItsSecret() {
    MasterKey k = new MasterKey(7, KeyPurpose.AM_TOKEN, "c2VjcmV0", T0);
    assertThat(k.toString()).contains("AM-token key 7").doesNotContain("c2VjcmV0");
  }
}
