package dev.bobbin.core.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.EntityTestKits;
import java.util.List;
import org.apache.pekko.Done;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializers;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class QueueEntityTest {
  private static final ActorTestKit testKit = ActorTestKit.create(EntityTestKits.config());
  private EventSourcedBehaviorTestKit<QueueEntity.Command, QueueEntity.Event, QueueEntity.State> kit;

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  @BeforeEach
  void setUp() {
    kit = EventSourcedBehaviorTestKit.create(testKit.system(), QueueEntity.create("default"));
    kit.clear();
  }

  @Test
  void aStoppedQueueRefusesApplications() {
    kit.<StatusReply<QueueEntity.Report>>runCommand(ref -> new QueueEntity.Configure("v1", QueueEntity.QueueState.STOPPED, ref));
    var r = kit.<StatusReply<Done>>runCommand(ref -> new QueueEntity.AddApps(List.of("application_1_0001"), "v1", ref));
    assertThat(r.reply().isError()).isTrue();
    assertThat(r.reply().getError().getMessage()).isEqualTo("Queue default is STOPPED");
    assertThat(r.hasNoEvents()).isTrue();
  }

  @Test
  void aSubmissionBringsTheQueueToTheCurrentConfigurationInTheSameWrite() {
    var r = kit.<StatusReply<Done>>runCommand(ref -> new QueueEntity.AddApps(List.of("application_1_0001"), "v2", ref));
    assertThat(r.reply().isSuccess()).isTrue();
    assertThat(r.events()).containsExactly(new QueueEntity.Configured("v2", QueueEntity.QueueState.RUNNING),
        new QueueEntity.AppsAdded(List.of("application_1_0001")));
    var again = kit.<StatusReply<Done>>runCommand(ref -> new QueueEntity.AddApps(List.of("application_1_0001"), "v2", ref));
    assertThat(again.reply().isSuccess()).isTrue();
    assertThat(again.hasNoEvents()).isTrue();
  }

  @Test
  void aRunningQueueHoldsItsApplicationsUntilTheyAreRemoved() {
    kit.<StatusReply<Done>>runCommand(ref -> new QueueEntity.AddApps(List.of("application_1_0001"), "v1", ref));
    kit.<StatusReply<Done>>runCommand(ref -> new QueueEntity.AddApps(List.of("application_1_0002"), "v1", ref));
    var removed = kit.<StatusReply<Done>>runCommand(ref -> new QueueEntity.RemoveApp("application_1_0001", ref));
    assertThat(removed.state().apps()).containsExactly("application_1_0002");
    assertThat(kit.restart().state().apps()).containsExactly("application_1_0002");
  }

  @Test
  void itsStateSurvivesSerializationAsInASnapshot() throws Exception {
    kit.<StatusReply<Done>>runCommand(ref -> new QueueEntity.AddApps(List.of("application_1_0001"), "v1", ref));
    var state = kit.<StatusReply<Done>>runCommand(ref -> new QueueEntity.AddApps(List.of("application_1_0002"), "v1", ref))
        .state();
    Serialization serialization = SerializationExtension.get(testKit.system());
    byte[] bytes = serialization.serialize(state).get();
    var serializer = serialization.findSerializerFor(state);
    assertThat(serializer.getClass().getSimpleName()).isEqualTo("JacksonCborSerializer");
    var back = (QueueEntity.State) serialization.deserialize(bytes, serializer.identifier(),
        Serializers.manifestFor(serializer, state)).get();
    assertThat(back.apps()).containsExactlyInAnyOrder("application_1_0001", "application_1_0002");
    assertThat(back.configVersion()).isEqualTo("v1");
  }

  @Test
  void reconfiguringWithTheSameVersionWritesNothing() {
    kit.<StatusReply<QueueEntity.Report>>runCommand(ref -> new QueueEntity.Configure("v1", QueueEntity.QueueState.RUNNING, ref));
    var again = kit.<StatusReply<QueueEntity.Report>>runCommand(ref -> new QueueEntity.Configure("v1", QueueEntity.QueueState.RUNNING, ref));
    assertThat(again.hasNoEvents()).isTrue();
  }
  @Test
  void oneWriteAdmitsManyApplicationsLeavingOutThoseItHolds() {
    kit.<StatusReply<Done>>runCommand(ref -> new QueueEntity.AddApps(List.of("application_1_0001"), "v1", ref));
    var r = kit.<StatusReply<Done>>runCommand(ref -> new QueueEntity.AddApps(
        List.of("application_1_0002", "application_1_0001", "application_1_0003", "application_1_0002"), "v1", ref));
    assertThat(r.reply().isSuccess()).isTrue();
    assertThat(r.events()).containsExactly(
        new QueueEntity.AppsAdded(List.of("application_1_0002", "application_1_0003")));
    assertThat(kit.restart().state().apps())
        .containsExactlyInAnyOrder("application_1_0001", "application_1_0002", "application_1_0003");
  }

  @Test
  void applicationsAddedOneByOneBeforeBatchingAreStillRead() {
    var s = QueueEntity.State.EMPTY
        .apply(new QueueEntity.Configured("v1", QueueEntity.QueueState.RUNNING))
        .apply(new QueueEntity.AppAdded("application_1_0001"))
        .apply(new QueueEntity.AppsAdded(List.of("application_1_0002")));
    assertThat(s.apps()).containsExactlyInAnyOrder("application_1_0001", "application_1_0002");
  }
}
