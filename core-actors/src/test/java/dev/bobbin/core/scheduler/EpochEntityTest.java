package dev.bobbin.core.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bobbin.core.EntityTestKits;
import java.util.Map;
import java.util.Optional;
import org.apache.pekko.Done;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.apache.pekko.serialization.jackson.JacksonObjectMapperProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class EpochEntityTest {
  private static final ActorTestKit testKit = ActorTestKit.create(EntityTestKits.config());

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  @Test
  void everyIncarnationGetsTheNextEpochAndTheClocksThePreviousOneLeft() {
    EventSourcedBehaviorTestKit<EpochEntity.Command, EpochEntity.Event, EpochEntity.State> kit =
        EventSourcedBehaviorTestKit.create(testKit.system(), EpochEntity.create("p"));
    var first = kit.<EpochEntity.Started>runCommand(EpochEntity.Next::new).reply();
    assertThat(first.epoch()).isEqualTo(1);
    var clocks = new EpochEntity.Clocks(Map.of("application_1_0002", 1234L), Map.of(),
        Map.of("application_1_0003", 26_000L));
    assertThat(kit.<StatusReply<Done>>runCommand(r -> new EpochEntity.SaveClocks(clocks, r)).events()).hasSize(1);
    assertThat(kit.<StatusReply<Done>>runCommand(r -> new EpochEntity.SaveClocks(clocks, r)).hasNoEvents()).isTrue();
    kit.restart();
    var second = kit.<EpochEntity.Started>runCommand(EpochEntity.Next::new).reply();
    assertThat(second.epoch()).isEqualTo(2);
    assertThat(second.clocks()).isEqualTo(clocks);
  }

  @Test
  void clocksJournalledWithoutRecheckTimesReadWithNone() throws Exception {
    ObjectMapper cbor = JacksonObjectMapperProvider.get(testKit.system()).getOrCreate("jackson-cbor", Optional.empty());
    byte[] older = cbor.writeValueAsBytes(Map.of(
        "appsBelowSince", Map.of("application_1_0002", 1234L), "queuesBelowSince", Map.of("root.a", 99L)));
    EpochEntity.Clocks read = cbor.readValue(older, EpochEntity.Clocks.class);
    assertThat(read).isEqualTo(new EpochEntity.Clocks(Map.of("application_1_0002", 1234L), Map.of("root.a", 99L),
        Map.of()));
  }
}
