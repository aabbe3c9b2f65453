package dev.bobbin.core.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.EntityTestKits;
import dev.bobbin.core.policy.AdmissionTerms;
import java.util.List;
import java.util.Map;
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
    var r = kit.<StatusReply<QueueEntity.Admitted>>runCommand(ref -> new QueueEntity.AddApps(List.of("application_1_0001"), "v1", AdmissionTerms.OPEN, ref));
    assertThat(r.reply().isError()).isTrue();
    assertThat(r.reply().getError().getMessage()).isEqualTo("Queue default is STOPPED");
    assertThat(r.hasNoEvents()).isTrue();
  }

  @Test
  void aSubmissionBringsTheQueueToTheCurrentConfigurationInTheSameWrite() {
    var r = kit.<StatusReply<QueueEntity.Admitted>>runCommand(ref -> new QueueEntity.AddApps(List.of("application_1_0001"), "v2", AdmissionTerms.OPEN, ref));
    assertThat(r.reply().isSuccess()).isTrue();
    assertThat(r.events()).containsExactly(new QueueEntity.Configured("v2", QueueEntity.QueueState.RUNNING),
        new QueueEntity.AppsAdded(List.of("application_1_0001")));
    var again = kit.<StatusReply<QueueEntity.Admitted>>runCommand(ref -> new QueueEntity.AddApps(List.of("application_1_0001"), "v2", AdmissionTerms.OPEN, ref));
    assertThat(again.reply().isSuccess()).isTrue();
    assertThat(again.hasNoEvents()).isTrue();
  }

  @Test
  void aRunningQueueHoldsItsApplicationsUntilTheyAreRemoved() {
    kit.<StatusReply<QueueEntity.Admitted>>runCommand(ref -> new QueueEntity.AddApps(List.of("application_1_0001"), "v1", AdmissionTerms.OPEN, ref));
    kit.<StatusReply<QueueEntity.Admitted>>runCommand(ref -> new QueueEntity.AddApps(List.of("application_1_0002"), "v1", AdmissionTerms.OPEN, ref));
    var removed = kit.<StatusReply<Done>>runCommand(ref -> new QueueEntity.RemoveApp("application_1_0001", ref));
    assertThat(removed.state().apps()).containsExactly("application_1_0002");
    assertThat(kit.restart().state().apps()).containsExactly("application_1_0002");
  }

  @Test
  void itsStateSurvivesSerializationAsInASnapshot() throws Exception {
    kit.<StatusReply<QueueEntity.Admitted>>runCommand(ref -> new QueueEntity.AddApps(List.of("application_1_0001"), "v1", AdmissionTerms.OPEN, ref));
    var state = kit.<StatusReply<QueueEntity.Admitted>>runCommand(ref -> new QueueEntity.AddApps(List.of("application_1_0002"), "v1", AdmissionTerms.OPEN, ref))
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
    kit.<StatusReply<QueueEntity.Admitted>>runCommand(ref -> new QueueEntity.AddApps(List.of("application_1_0001"), "v1", AdmissionTerms.OPEN, ref));
    var r = kit.<StatusReply<QueueEntity.Admitted>>runCommand(ref -> new QueueEntity.AddApps(
        List.of("application_1_0002", "application_1_0001", "application_1_0003", "application_1_0002"), "v1", AdmissionTerms.OPEN, ref));
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

  private StatusReply<QueueEntity.Admitted> add(String version, AdmissionTerms terms, String... appIds) {
    return kit.<StatusReply<QueueEntity.Admitted>>runCommand(ref -> new QueueEntity.AddApps(List.of(appIds), version,
        terms, ref)).reply();
  }

  private StatusReply<Done> claimParent(String version) {
    return kit.<StatusReply<Done>>runCommand(ref -> new QueueEntity.ClaimParent(version, ref)).reply();
  }

  @Test
  void aConfigurationThatStopsTheQueueRefusesItsSubmissionsAndWritesNothing() {
    add("v1", AdmissionTerms.OPEN, "application_1_0001");
    var r = kit.<StatusReply<QueueEntity.Admitted>>runCommand(ref -> new QueueEntity.AddApps(
        List.of("application_1_0002"), "v2", new AdmissionTerms(true, 10), ref));
    assertThat(r.reply().getError().getMessage()).isEqualTo("Queue default is STOPPED");
    assertThat(r.hasNoEvents()).isTrue();
  }

  @Test
  void applicationsBeyondTheMostItMayHoldAreRefusedEachWithYarnsReason() {
    add("v1", new AdmissionTerms(false, 2), "application_1_0001");
    var r = add("v1", new AdmissionTerms(false, 2), "application_1_0002", "application_1_0003");
    assertThat(r.getValue().refused()).containsOnlyKeys("application_1_0003");
    assertThat(r.getValue().refused().get("application_1_0003")).isEqualTo(
        "Queue root.default already has 1 applications, cannot accept submission of application: application_1_0003");
    assertThat(kit.restart().state().apps()).containsExactlyInAnyOrder("application_1_0001", "application_1_0002");
    // One that it holds already is admitted again, whatever the limit.
    assertThat(add("v1", new AdmissionTerms(false, 2), "application_1_0002").getValue().refused()).isEmpty();
  }

  @Test
  void theClusterWideCountRefusesWithHadoopsSystemLimitReason() {
    var cluster = EventSourcedBehaviorTestKit.<QueueEntity.Command, QueueEntity.Event, QueueEntity.State>create(
        testKit.system(), QueueEntity.create(QueueEntity.CLUSTER));
    var r = cluster.<StatusReply<QueueEntity.Admitted>>runCommand(ref -> new QueueEntity.AddApps(
        List.of("application_1_0001", "application_1_0002"), "v1", new AdmissionTerms(false, 1), ref)).reply();
    assertThat(r.getValue().refused()).containsExactly(Map.entry("application_1_0002",
        "Maximum system application limit reached, cannot accept submission of application: application_1_0002"));
  }

  @Test
  void aQueuePlacementMadeAParentTakesNoApplicationsUntilTheConfigurationChanges() {
    assertThat(claimParent("v1").isSuccess()).isTrue();
    assertThat(claimParent("v1").isSuccess()).as("claimed again, nothing written").isTrue();
    var refused = add("v1", AdmissionTerms.OPEN, "application_1_0001");
    assertThat(refused.getError().getMessage())
        .isEqualTo("Queue root.default is a parent queue; applications go to leaf queues");
    assertThat(kit.restart().state().parent()).isTrue();
    // A new configuration may name it a leaf.
    assertThat(add("v2", AdmissionTerms.OPEN, "application_1_0001").isSuccess()).isTrue();
  }

  @Test
  void aQueueHoldingApplicationsCannotBecomeAParent() {
    add("v1", AdmissionTerms.OPEN, "application_1_0001");
    var r = kit.<StatusReply<Done>>runCommand(ref -> new QueueEntity.ClaimParent("v1", ref));
    assertThat(r.reply().getError().getMessage())
        .isEqualTo("Queue root.default is a leaf queue that holds applications; it cannot have child queues");
    assertThat(r.hasNoEvents()).isTrue();
  }

  private StatusReply<QueueEntity.Admitted> addOf(AdmissionTerms terms, Map<String, String> users, String... appIds) {
    return kit.<StatusReply<QueueEntity.Admitted>>runCommand(ref -> new QueueEntity.AddApps(List.of(appIds), users, "v1",
        terms, ref)).reply();
  }

  @Test
  void applicationsBeyondTheMostOneUserMayHoldAreRefusedWithYarnsReasonAndOthersStillAdmitted() {
    // At most 2 applications of one user, 10 in all.
    AdmissionTerms terms = new AdmissionTerms(false, 10, 2);
    addOf(terms, Map.of("application_1_0001", "alice"), "application_1_0001");
    var r = addOf(terms, Map.of("application_1_0002", "alice", "application_1_0003", "alice",
        "application_1_0004", "bob"), "application_1_0002", "application_1_0003", "application_1_0004");
    assertThat(r.getValue().refused()).containsOnlyKeys("application_1_0003");
    assertThat(r.getValue().refused().get("application_1_0003")).isEqualTo("Queue root.default already has 2"
        + " applications from user alice cannot accept submission of application: application_1_0003");
    var restarted = kit.restart().state();
    assertThat(restarted.appsOf("alice")).isEqualTo(2);
    assertThat(restarted.appsOf("bob")).isEqualTo(1);
    // One of alice's ends: she may submit one more.
    kit.<StatusReply<Done>>runCommand(ref -> new QueueEntity.RemoveApp("application_1_0001", ref));
    assertThat(kit.getState().appsOf("alice")).isEqualTo(1);
    assertThat(addOf(terms, Map.of("application_1_0005", "alice"), "application_1_0005").getValue().refused()).isEmpty();
  }

  @Test
  void whoseApplicationsItHoldsSurvivesASnapshotAndAnOlderSnapshotReadsWithoutThem() throws Exception {
    addOf(new AdmissionTerms(false, 10, 5), Map.of("application_1_0001", "alice"), "application_1_0001");
    Serialization serialization = SerializationExtension.get(testKit.system());
    var state = kit.getState();
    var serializer = serialization.findSerializerFor(state);
    var back = (QueueEntity.State) serialization.deserialize(serialization.serialize(state).get(),
        serializer.identifier(), Serializers.manifestFor(serializer, state)).get();
    assertThat(back.appsOf("alice")).isEqualTo(1);
    assertThat(back.owners().get("application_1_0001").get()).isEqualTo("alice");
    // A snapshot written before applications had owners: no one's count, every application still held.
    byte[] older = new com.fasterxml.jackson.dataformat.cbor.databind.CBORMapper().writeValueAsBytes(Map.of(
        "configVersion", "v1", "state", "RUNNING", "apps", List.of("application_1_0001"), "parent", false));
    var read = (QueueEntity.State) serialization.deserialize(older, serializer.identifier(),
        Serializers.manifestFor(serializer, state)).get();
    assertThat(read.apps()).containsExactly("application_1_0001");
    assertThat(read.appsOf("alice")).isZero();
  }
}
