package dev.bobbin.core.container;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.EntityTestKits;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.Resource;
import java.time.Clock;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ContainerEntityTest {
  private static final ActorTestKit testKit = ActorTestKit.create(EntityTestKits.config());
  private static final String ID = "container_e3_1700000000000_0001_01_000002";
  private static final ContainerEntity.Allocation ALLOC = new ContainerEntity.Allocation(ID,
      "application_1700000000000_0001", "appattempt_1700000000000_0001_000001", "h:1", "h:1",
      new Resource(1024, 1), 1, -1, false);

  private EventSourcedBehaviorTestKit<ContainerEntity.Command, ContainerEntity.Event, ContainerEntity.State> kit;

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  @BeforeEach
  void setUp() {
    kit = EventSourcedBehaviorTestKit.create(testKit.system(), ContainerEntity.create(ID, Clock.systemUTC()));
    kit.clear();
  }

  @Test
  void allocationIsPersistedOnceAndRepeatsAreAcknowledged() {
    var first = kit.<StatusReply<Done>>runCommand(r -> new ContainerEntity.Allocate(ALLOC, r));
    assertThat(first.reply().isSuccess()).isTrue();
    assertThat(first.eventOfType(ContainerEntity.Allocated.class).allocation()).isEqualTo(ALLOC);
    var again = kit.<StatusReply<Done>>runCommand(r -> new ContainerEntity.Allocate(ALLOC, r));
    assertThat(again.reply().isSuccess()).isTrue();
    assertThat(again.hasNoEvents()).isTrue();
  }

  @Test
  void aDifferentAllocationForTheSameIdIsRefused() {
    kit.<StatusReply<Done>>runCommand(r -> new ContainerEntity.Allocate(ALLOC, r));
    var other = new ContainerEntity.Allocation(ID, ALLOC.appId(), ALLOC.attemptId(), "other:1", "other:1",
        ALLOC.resource(), 1, -1, false);
    var result = kit.<StatusReply<Done>>runCommand(r -> new ContainerEntity.Allocate(other, r));
    assertThat(result.reply().isError()).isTrue();
    assertThat(result.hasNoEvents()).isTrue();
  }

  @Test
  void runsAndCompletesWithItsExitStatusAcrossARestart() {
    kit.<StatusReply<Done>>runCommand(r -> new ContainerEntity.Allocate(ALLOC, r));
    kit.<StatusReply<Done>>runCommand(ContainerEntity.MarkRunning::new);
    kit.<StatusReply<Done>>runCommand(r -> new ContainerEntity.Complete(3, "exit 3", r));
    var twice = kit.<StatusReply<Done>>runCommand(r -> new ContainerEntity.Complete(0, "", r));
    assertThat(twice.hasNoEvents()).isTrue();
    var state = kit.restart().state();
    assertThat(state.phase()).isEqualTo(ContainerEntity.Phase.COMPLETED);
    assertThat(state.exitStatus()).isEqualTo(3);
  }

  @Test
  void aCancelledPreemptionIsForgottenAcrossARestartAndOnlyItsOwnRecordCancelsIt() {
    var record = new dev.bobbin.core.app.PreemptionRecord(ID, ALLOC.appId(), null, "root.b", "CAPACITY",
        ALLOC.resource(), false, 1L, 2L, "root.a over its guarantee");
    kit.<StatusReply<Done>>runCommand(r -> new ContainerEntity.Allocate(ALLOC, r));
    kit.<StatusReply<Done>>runCommand(ContainerEntity.MarkRunning::new);
    kit.<StatusReply<Done>>runCommand(r -> new ContainerEntity.RequestPreemption(record, r));

    var other = new dev.bobbin.core.app.PreemptionRecord(ID, ALLOC.appId(), null, "root.c", "CAPACITY",
        ALLOC.resource(), false, 5L, 6L, "another round");
    var stale = kit.<StatusReply<Done>>runCommand(r -> new ContainerEntity.CancelPreemption(other, r));
    assertThat(stale.reply().isSuccess()).isTrue();
    assertThat(stale.hasNoEvents()).isTrue();

    var cancelled = kit.<StatusReply<Done>>runCommand(r -> new ContainerEntity.CancelPreemption(record, r));
    assertThat(cancelled.reply().isSuccess()).isTrue();
    assertThat(cancelled.eventOfType(ContainerEntity.PreemptionCancelled.class)).isNotNull();
    assertThat(kit.<StatusReply<Done>>runCommand(r -> new ContainerEntity.CancelPreemption(record, r)).hasNoEvents())
        .isTrue();
    var state = kit.restart().state();
    assertThat(state.preemption()).isNull();
    assertThat(state.phase()).isEqualTo(ContainerEntity.Phase.RUNNING);
  }

  @Test
  void aWithdrawnAllocationEndsAbortedWithNothingToDeliver() {
    kit.<StatusReply<Done>>runCommand(r -> new ContainerEntity.Allocate(ALLOC, r));
    var withdrawn = kit.<StatusReply<Done>>runCommand(ContainerEntity.Withdraw::new);
    assertThat(withdrawn.reply().isSuccess()).isTrue();
    var state = kit.restart().state();
    assertThat(state.phase()).isEqualTo(ContainerEntity.Phase.COMPLETED);
    assertThat(state.exitStatus()).isEqualTo(ExitStatus.ABORTED);
    assertThat(state.completionDelivered()).isTrue();
    // A late start report changes nothing.
    assertThat(kit.<StatusReply<Done>>runCommand(ContainerEntity.MarkRunning::new).hasNoEvents()).isTrue();
  }

  @Test
  void anAllocationArrivingAfterItsWithdrawalIsRefused() {
    kit.<StatusReply<Done>>runCommand(ContainerEntity.Withdraw::new);
    var late = kit.<StatusReply<Done>>runCommand(r -> new ContainerEntity.Allocate(ALLOC, r));
    assertThat(late.reply().isError()).isTrue();
    assertThat(late.reply().getError().getMessage()).contains("withdrawn");
    assertThat(late.hasNoEvents()).isTrue();
    assertThat(kit.restart().state().allocation()).isNull();
    var get = kit.<StatusReply<ContainerEntity.Report>>runCommand(ContainerEntity.Get::new);
    assertThat(get.reply().isError()).isTrue();
  }

  @Test
  void aRunningContainerIsNotWithdrawn() {
    kit.<StatusReply<Done>>runCommand(r -> new ContainerEntity.Allocate(ALLOC, r));
    kit.<StatusReply<Done>>runCommand(ContainerEntity.MarkRunning::new);
    var result = kit.<StatusReply<Done>>runCommand(ContainerEntity.Withdraw::new);
    assertThat(result.reply().isError()).isTrue();
    assertThat(result.hasNoEvents()).isTrue();
    assertThat(result.state().phase()).isEqualTo(ContainerEntity.Phase.RUNNING);
  }

  @Test
  void completingAnUnknownContainerIsAnError() {
    var result = kit.<StatusReply<Done>>runCommand(r -> new ContainerEntity.Complete(0, "", r));
    assertThat(result.reply().isError()).isTrue();
    assertThat(result.hasNoEvents()).isTrue();
  }

  @Test
  void recoversFromItsEventsAloneIgnoringAnySnapshot() {
    try (var snapshots = new SnapshotKit()) {
      var entity = snapshots.kit;
      entity.<StatusReply<Done>>runCommand(r -> new ContainerEntity.Allocate(ALLOC, r));
      entity.<StatusReply<Done>>runCommand(ContainerEntity.MarkRunning::new);
      // A snapshot a journal holds that contradicts the events.
      var planted = new ContainerEntity.State(ALLOC, ContainerEntity.Phase.COMPLETED, 1, 2, 3, 99, "planted", null,
          true);
      snapshots.store.persistForRecovery("Container|" + ID,
          java.util.List.of(org.apache.pekko.japi.Pair.create(
              org.apache.pekko.persistence.testkit.SnapshotMeta.create(2), planted)));
      var state = entity.restart().state();
      assertThat(state.phase()).isEqualTo(ContainerEntity.Phase.RUNNING);
      assertThat(state.exitStatus()).isEqualTo(ExitStatus.INVALID);
    }
  }

  @Test
  void aWholeLifecycleWritesNoSnapshot() {
    try (var snapshots = new SnapshotKit()) {
      var entity = snapshots.kit;
      entity.<StatusReply<Done>>runCommand(r -> new ContainerEntity.Allocate(ALLOC, r));
      entity.<StatusReply<Done>>runCommand(ContainerEntity.MarkRunning::new);
      entity.<StatusReply<Done>>runCommand(r -> new ContainerEntity.RequestPreemption(
          new dev.bobbin.core.app.PreemptionRecord(ID, ALLOC.appId(), "application_1700000000000_0002", "root.b",
              "fair share", ALLOC.resource(), false, 1L, 2L, "starved"), r));
      entity.<StatusReply<Done>>runCommand(r -> new ContainerEntity.Complete(ExitStatus.PREEMPTED, "preempted", r));
      assertThat(entity.restart().state().phase()).isEqualTo(ContainerEntity.Phase.COMPLETED);
      snapshots.store.expectNothingPersisted("Container|" + ID);
    }
  }

  /** A container entity on the test journal and the test snapshot store, in a system of its own. */
  private static final class SnapshotKit implements AutoCloseable {
    final ActorTestKit system = ActorTestKit.create(
        org.apache.pekko.persistence.testkit.PersistenceTestKitSnapshotPlugin.config().withFallback(EntityTestKits.config()));
    final EventSourcedBehaviorTestKit<ContainerEntity.Command, ContainerEntity.Event, ContainerEntity.State> kit =
        EventSourcedBehaviorTestKit.create(system.system(), ContainerEntity.create(ID, Clock.systemUTC()));
    final org.apache.pekko.persistence.testkit.javadsl.SnapshotTestKit store = kit.snapshotTestKit().orElseThrow();

    @Override
    public void close() {
      system.shutdownTestKit();
    }
  }
}
