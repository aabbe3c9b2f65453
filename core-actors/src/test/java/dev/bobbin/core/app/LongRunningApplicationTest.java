package dev.bobbin.core.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.EntityTestKits;
import dev.bobbin.core.scheduler.SchedulerProtocol;
import dev.bobbin.core.scheduler.ToScheduler;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.Resource;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Applications that run long: attempt failures in a sliding window, failures that are not the AM's, lifetimes. */
class LongRunningApplicationTest {
  private static final ActorTestKit testKit = ActorTestKit.create(EntityTestKits.config());
  private static final String APP = "application_1700000000000_0001";
  private static final long T0 = 1_700_000_100_000L;

  private final SettableClock clock = new SettableClock();
  private TestProbe<SchedulerProtocol.Command> scheduler;
  private EventSourcedBehaviorTestKit<ApplicationEntity.Command, ApplicationEntity.Event, ApplicationEntity.State> kit;

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  @BeforeEach
  void setUp() {
    clock.now = T0;
    scheduler = testKit.createTestProbe();
    kit = EventSourcedBehaviorTestKit.create(testKit.system(),
        ApplicationEntity.create(APP, new ToScheduler(scheduler.ref()), clock, 100));
    kit.clear();
  }

  private void submit(int maxAttempts, long window, long lifetime) {
    kit.<StatusReply<Done>>runCommand(r -> new ApplicationEntity.Issue("alice", r));
    Submission s = new Submission(APP, "svc", "alice", "default", 0, "YARN", List.of(), new Resource(1024, 1),
        new ContainerLaunchContext(List.of("sleep 600"), Map.of()), maxAttempts)
        .withAttemptFailuresValidityInterval(window).withLifetime(lifetime);
    assertThat(kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.Submit(s, r)).reply().isSuccess())
        .isTrue();
  }

  /** The current attempt's AM container exits with {@code exit} at {@code time}. */
  private void amExits(long time, int exit) {
    clock.now = time;
    String attempt = kit.getState().currentAttempt().attemptId();
    kit.<StatusReply<Done>>runCommand(r -> new ApplicationEntity.AmContainerFinished(attempt, exit, "", r));
  }

  @Test
  void withAWindowOnlyRecentFailuresCountAndTheApplicationKeepsBeingRetried() {
    // Two attempts allowed, failures count for 1 s: an AM failing every 2 s never has two in the window.
    submit(2, 1_000, -1);
    for (int i = 1; i <= 6; i++) amExits(T0 + 2_000L * i, 1);
    assertThat(kit.getState().state()).isEqualTo(AppState.ACCEPTED);
    // Only as many attempts as it may fail are kept: older ones ended before the window and never count again.
    assertThat(kit.getState().attempts()).extracting(Attempt::number).containsExactly(6, 7);
    assertThat(kit.getState().report().attemptFailuresCounted(clock.now)).isEqualTo(1);
    // The window slides: 1.5 s later the last failure no longer counts either.
    assertThat(kit.getState().report().attemptFailuresCounted(clock.now + 1_500)).isZero();

    // Two failures 500 ms apart are both inside the window: the limit is reached.
    amExits(clock.now + 500, 1);
    assertThat(kit.getState().state()).isEqualTo(AppState.FAILED);
    assertThat(kit.getState().diagnostics()).contains("failed 2 times in previous 1000 milliseconds");
  }

  @Test
  void anAttemptThatEndedInsideTheWindowIsKeptEvenBeyondTheMaximum() {
    submit(2, 10_000, -1);
    amExits(T0 + 1_000, ExitStatus.PREEMPTED);
    amExits(T0 + 2_000, ExitStatus.PREEMPTED);
    amExits(T0 + 3_000, 1);
    assertThat(kit.getState().attempts()).extracting(Attempt::number).containsExactly(1, 2, 3, 4);

    // Much later, with the next attempt, the three that ended before the window go; numbering goes on.
    amExits(T0 + 60_000, ExitStatus.PREEMPTED);
    assertThat(kit.getState().attempts()).extracting(Attempt::number).containsExactly(4, 5);
    assertThat(kit.restart().state().attempts()).extracting(Attempt::number).containsExactly(4, 5);
    assertThat(kit.getState().currentAttempt().attemptId()).endsWith("_000005");
  }

  @Test
  void withoutAWindowEveryAttemptIsKept() {
    submit(5, -1, -1);
    for (int i = 1; i <= 4; i++) amExits(T0 + 1_000_000L * i, ExitStatus.PREEMPTED);
    assertThat(kit.getState().attempts()).hasSize(5);
  }

  @Test
  void aFailureExactlyAtTheWindowsEdgeStillCounts() {
    submit(2, 1_000, -1);
    amExits(T0 + 1_000, 1);
    amExits(T0 + 2_000, 1);
    assertThat(kit.getState().state()).isEqualTo(AppState.FAILED);
  }

  @Test
  void withoutAWindowEveryFailureCountsHoweverOld() {
    submit(2, -1, -1);
    amExits(T0 + 2_000, 1);
    amExits(T0 + 3_600_000, 1);
    assertThat(kit.getState().state()).isEqualTo(AppState.FAILED);
    assertThat(kit.getState().diagnostics()).contains("failed 2 times due to").doesNotContain("in previous");
  }

  @Test
  void theFailureTimesAreJournalledSoTheWindowSurvivesARestart() {
    submit(2, 10_000, -1);
    amExits(T0 + 1_000, 1);
    kit.restart();
    amExits(T0 + 5_000, 1);
    assertThat(kit.getState().state()).isEqualTo(AppState.FAILED);
  }

  @ParameterizedTest
  @ValueSource(ints = {ExitStatus.PREEMPTED, ExitStatus.ABORTED, ExitStatus.DISKS_FAILED,
      ExitStatus.KILLED_BY_RESOURCEMANAGER})
  void anAttemptTheClusterEndedNeverCountsAndItsDiagnosticsSayWhy(int exit) {
    submit(2, -1, -1);
    for (int i = 1; i <= 4; i++) amExits(T0 + i, exit);
    assertThat(kit.getState().state()).isEqualTo(AppState.ACCEPTED);
    assertThat(kit.getState().report().attemptFailuresCounted(clock.now)).isZero();
    assertThat(kit.getState().attempts().get(0).diagnostics())
        .contains("Not counted against the application's attempts")
        .contains(switch (exit) {
          case ExitStatus.PREEMPTED -> "PREEMPTED";
          case ExitStatus.ABORTED -> "node was lost or decommissioned, or the ResourceManager failed over";
          case ExitStatus.DISKS_FAILED -> "DISKS_FAILED";
          default -> "KILLED_BY_RESOURCEMANAGER";
        });
  }

  @Test
  void anAmFailureSaysNothingAboutNotCounting() {
    submit(3, -1, -1);
    amExits(T0 + 1, 137);
    assertThat(kit.getState().attempts().get(0).diagnostics()).doesNotContain("Not counted");
    assertThat(kit.getState().report().attemptFailuresCounted(clock.now)).isEqualTo(1);
  }

  @Test
  void anApplicationPastItsLifetimeIsKilledAndTheDeadlineSurvivesARestart() {
    submit(2, -1, 10_000);
    scheduler.expectMessageClass(SchedulerProtocol.AttemptAdded.class);
    assertThat(scheduler.expectMessageClass(SchedulerProtocol.LifetimeChanged.class).deadline()).isEqualTo(T0 + 10_000);

    clock.now = T0 + 9_999;
    var early = kit.<StatusReply<Done>>runCommand(ApplicationEntity.ExpireLifetime::new);
    assertThat(early.hasNoEvents()).isTrue();

    kit.restart();
    assertThat(kit.getState().lifetimeDeadline()).isEqualTo(T0 + 10_000);
    clock.now = T0 + 10_000;
    var due = kit.<StatusReply<Done>>runCommand(ApplicationEntity.ExpireLifetime::new);
    assertThat(due.reply().isSuccess()).isTrue();
    assertThat(kit.getState().state()).isEqualTo(AppState.KILLED);
    assertThat(kit.getState().diagnostics()).isEqualTo(ApplicationEntity.LIFETIME_EXCEEDED);
    assertThat(scheduler.expectMessageClass(SchedulerProtocol.AppEnded.class).state()).isEqualTo(AppState.KILLED);
  }

  @Test
  void aLifetimeIsMovedByAnUpdateAndAnExpiryInThePastChangesNothing() {
    submit(2, -1, -1);
    assertThat(kit.getState().report().lifetimeDeadline()).isZero();
    var past = kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.UpdateLifetime(T0 - 1, r));
    assertThat(past.reply().getError().getMessage()).contains("Expire time is less than current time");
    assertThat(past.hasNoEvents()).isTrue();

    var updated = kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.UpdateLifetime(T0 + 60_000, r));
    assertThat(updated.reply().getValue().lifetimeDeadline()).isEqualTo(T0 + 60_000);
    assertThat(kit.restart().state().lifetimeDeadline()).isEqualTo(T0 + 60_000);

    clock.now = T0 + 30_000;
    assertThat(kit.<StatusReply<Done>>runCommand(ApplicationEntity.ExpireLifetime::new).hasNoEvents()).isTrue();
    assertThat(kit.getState().state()).isEqualTo(AppState.ACCEPTED);
  }

  @Test
  void anEndedApplicationKeepsItsTimeouts() {
    submit(2, -1, 5_000);
    kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.Kill("", r));
    var update = kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.UpdateLifetime(T0 + 60_000, r));
    assertThat(update.hasNoEvents()).isTrue();
    assertThat(update.reply().getValue().lifetimeDeadline()).isEqualTo(T0 + 5_000);
  }

  private static final class SettableClock extends Clock {
    volatile long now;

    @Override
    public long millis() {
      return now;
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(now);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }
}
