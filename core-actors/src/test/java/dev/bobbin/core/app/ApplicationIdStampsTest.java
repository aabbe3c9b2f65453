package dev.bobbin.core.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.EntityTestKits;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class ApplicationIdStampsTest {
  private static final ActorTestKit testKit = ActorTestKit.create(EntityTestKits.config());

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  @Test
  void membersAskingInTheSameMillisecondOrWithABehindClockGetDistinctRisingStamps() {
    EventSourcedBehaviorTestKit<ApplicationIdStamps.Command, ApplicationIdStamps.Taken, ApplicationIdStamps.State> kit =
        EventSourcedBehaviorTestKit.create(testKit.system(), ApplicationIdStamps.create(ApplicationIdStamps.ENTITY_ID));
    assertThat(kit.<Long>runCommand(r -> new ApplicationIdStamps.Take(1_700_000_000_000L, r)).reply())
        .isEqualTo(1_700_000_000_000L);
    assertThat(kit.<Long>runCommand(r -> new ApplicationIdStamps.Take(1_700_000_000_000L, r)).reply())
        .isEqualTo(1_700_000_000_001L);
    // A restart of the entity keeps what was handed out; a member whose clock is behind still gets a later stamp.
    kit.restart();
    assertThat(kit.<Long>runCommand(r -> new ApplicationIdStamps.Take(1_600_000_000_000L, r)).reply())
        .isEqualTo(1_700_000_000_002L);
    assertThat(kit.<Long>runCommand(r -> new ApplicationIdStamps.Take(1_800_000_000_000L, r)).reply())
        .isEqualTo(1_800_000_000_000L);
  }
}
