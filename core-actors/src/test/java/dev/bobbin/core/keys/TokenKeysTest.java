package dev.bobbin.core.keys;

import static dev.bobbin.core.keys.KeyFixtures.SCHEDULES;
import static dev.bobbin.core.keys.KeyFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.EntityTestKits;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.pubsub.Topic;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class TokenKeysTest {
  private static final ActorTestKit testKit = ActorTestKit.create(EntityTestKits.config());
  private final KeyFixtures.SetClock now = new KeyFixtures.SetClock();
  private final AtomicInteger secrets = new AtomicInteger();
  private final TestProbe<Topic.Command<KeyRing>> published = testKit.createTestProbe();
  private final EventSourcedBehaviorTestKit<TokenKeys.Command, TokenKeys.Event, KeyRing> kit =
      EventSourcedBehaviorTestKit.create(testKit.system(), TokenKeys.create(SCHEDULES, now,
          () -> "c2VjcmV0LXNlY3JldC0" + secrets.incrementAndGet(), published.ref(), Duration.ofHours(1)));

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  @Test
  void theFirstAskFindsKeysOfEveryPurposeAndEveryChangeIsPublished() {
    var result = kit.<KeyRing>runCommand(TokenKeys.Get::new);

    assertThat(result.reply().keys()).extracting(MasterKey::purpose)
        .containsExactly(KeyPurpose.CONTAINER_TOKEN, KeyPurpose.AM_TOKEN);
    assertThat(published.receiveMessage()).isEqualTo(Topic.publish(result.reply()));
    assertThat(kit.<KeyRing>runCommand(TokenKeys.Get::new).events()).as("nothing due").isEmpty();
    now.set(T0 + 60_000);
    var rolled = kit.<KeyRing>runCommand(TokenKeys.Get::new);
    assertThat(rolled.events()).as("an ask makes what is due before it answers").singleElement()
        .isInstanceOfSatisfying(TokenKeys.KeyMade.class, e -> assertThat(e.key().purpose()).isEqualTo(KeyPurpose.AM_TOKEN));
    assertThat(rolled.reply().of(KeyPurpose.AM_TOKEN)).hasSize(2);
    assertThat(published.receiveMessage()).isEqualTo(Topic.publish(rolled.reply()));
  }

  @Test
  void aRollMakesAndRetiresWhatIsDueAndARestartRecoversEveryKey() {
    KeyRing first = kit.<KeyRing>runCommand(TokenKeys.Get::new).reply();
    now.set(T0 + 80_000);
    assertThat(kit.runCommand(TokenKeys.Roll.INSTANCE).events())
        .filteredOn(e -> e instanceof TokenKeys.KeyMade m && m.key().purpose() == KeyPurpose.CONTAINER_TOKEN)
        .singleElement()
        .isInstanceOfSatisfying(TokenKeys.KeyMade.class,
            e -> assertThat(e.key().activatesAtMs()).isEqualTo(T0 + 100_000));
    now.set(T0 + 130_000);
    var retired = kit.runCommand(TokenKeys.Roll.INSTANCE);
    assertThat(retired.events()).contains(new TokenKeys.KeyRetired(1));

    KeyRing before = retired.state();
    kit.restart();
    assertThat(kit.getState()).as("the keys come back from the journal").isEqualTo(before);
    assertThat(kit.getState().keys()).doesNotContainAnyElementsOf(first.of(KeyPurpose.CONTAINER_TOKEN));
  }

  @Test
  void aSchedulerStartRecordsItsEpochOnceAndOnlyUpwards() {
    kit.<KeyRing>runCommand(TokenKeys.Get::new);

    assertThat(kit.<KeyRing>runCommand(r -> new TokenKeys.SchedulerStarted(3, r)).reply().schedulerEpoch()).isEqualTo(3);
    var older = kit.<KeyRing>runCommand(r -> new TokenKeys.SchedulerStarted(2, r));
    assertThat(older.events()).isEmpty();
    assertThat(older.reply().schedulerEpoch()).isEqualTo(3);
    kit.restart();
    assertThat(kit.getState().schedulerEpoch()).isEqualTo(3);
  }

  @Test
  void theClusterIsNamedOnceWithItsFirstKeysAndKeepsItsNameThroughRollsAndRestarts() {
    kit.clear();
    String name = kit.<KeyRing>runCommand(TokenKeys.Get::new).reply().clusterId();
    assertThat(name).isNotBlank();
    assertThat(kit.<KeyRing>runCommand(TokenKeys.Get::new).events()).isEmpty();

    now.set(T0 + 130_000);
    assertThat(kit.runCommand(TokenKeys.Roll.INSTANCE).events()).noneMatch(e -> e instanceof TokenKeys.ClusterNamed);
    kit.<KeyRing>runCommand(r -> new TokenKeys.SchedulerStarted(2, r));
    kit.restart();
    assertThat(kit.getState().clusterId()).isEqualTo(name);
  }

  @Test
  void anotherJournalIsAnotherCluster() {
    String name = kit.<KeyRing>runCommand(TokenKeys.Get::new).reply().clusterId();
    kit.clear();
    assertThat(kit.<KeyRing>runCommand(TokenKeys.Get::new).reply().clusterId()).isNotBlank().isNotEqualTo(name);
  }
}
