package dev.bobbin.core.scheduler;

import static dev.bobbin.core.scheduler.ModelFixtures.APP;
import static dev.bobbin.core.scheduler.ModelFixtures.ATTEMPT;
import static dev.bobbin.core.scheduler.ModelFixtures.GB;
import static dev.bobbin.core.scheduler.ModelFixtures.NODE;
import static dev.bobbin.core.scheduler.ModelFixtures.addAttempt;
import static dev.bobbin.core.scheduler.ModelFixtures.addNode;
import static dev.bobbin.core.scheduler.ModelFixtures.place;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.app.PreemptionRecord;
import dev.bobbin.core.policy.Preemption;
import dev.bobbin.core.policy.fair.FairPolicySet;
import dev.bobbin.core.policy.fair.PreemptionDecision;
import dev.bobbin.core.policy.fair.Starvation;
import dev.bobbin.protocol.Resource;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The model's part of preemption: which containers get a record, and what is due at the kill time. */
class SchedulerModelPreemptionTest {
  private static final String VICTIM = APP;
  private static final String VICTIM_ATTEMPT = ATTEMPT;
  private static final String STARVED = "application_1795502072393_0002";
  private static final long NOW = 1_000;
  private static final long KILL_AT = 16_000;

  private final SchedulerModel model = new SchedulerModel();
  private SchedContainer running;
  private SchedContainer allocated;
  private SchedContainer inFlight;

  @BeforeEach
  void aVictimWithThreeContainers() {
    addNode(model, NODE, Resource.of(8192, 8));
    addAttempt(model, VICTIM, VICTIM_ATTEMPT, "alice");
    running = place(model, VICTIM, VICTIM_ATTEMPT, SchedContainer.Phase.RUNNING, NOW);
    allocated = place(model, VICTIM, VICTIM_ATTEMPT, SchedContainer.Phase.ALLOCATED, NOW);
    inFlight = place(model, VICTIM, VICTIM_ATTEMPT, SchedContainer.Phase.IN_FLIGHT, NOW);
  }

  @Test
  void eachContainerOfTheDecisionGetsOneRecordSayingWhy() {
    List<PreemptionRecord> records = model.preempting().start(
        decision(running.id(), allocated.id(), "container_gone"), NOW, KILL_AT);

    assertThat(records).extracting(PreemptionRecord::containerId).containsExactly(running.id(), allocated.id());
    PreemptionRecord r = records.get(0);
    assertThat(r.victimAppId()).isEqualTo(VICTIM);
    assertThat(r.starvedAppId()).isEqualTo(STARVED);
    assertThat(r.starvedQueue()).isEqualTo("root.b");
    assertThat(r.kind()).isEqualTo("FAIR_SHARE");
    assertThat(r.resource()).isEqualTo(GB);
    assertThat(r.decidedAt()).isEqualTo(NOW);
    assertThat(r.killAt()).isEqualTo(KILL_AT);
    assertThat(r.reason()).startsWith("starved b").contains("victim " + VICTIM + " in root.a has fair share");
    assertThat(model.preempting().ids()).containsOnly(running.id(), allocated.id());
    // A later decision naming them again starts nothing new: the first record and kill time stand.
    assertThat(model.preempting().start(decision(running.id()), NOW + 500, KILL_AT + 500)).isEmpty();
    assertThat(model.preempting().of(running.id()).killAt()).isEqualTo(KILL_AT);
  }

  @Test
  void atTheKillTimeARunningContainerIsKilledOnceAndOneThatNeverStartedIsReleased() {
    model.preempting().start(decision(running.id(), allocated.id(), inFlight.id()), NOW, KILL_AT);
    Preempting.Due early = model.preempting().due(KILL_AT - 1);
    assertThat(early.killed()).isEmpty();
    assertThat(early.toRelease()).isEmpty();
    assertThat(model.node(NODE).toKill).isEmpty();

    Preempting.Due due = model.preempting().due(KILL_AT);
    assertThat(due.killed()).extracting(PreemptionRecord::containerId).containsExactly(running.id());
    assertThat(model.node(NODE).toKill).containsExactly(running.id());
    // Its write still pending, the third is neither killed nor released yet.
    assertThat(due.toRelease()).extracting(PreemptionRecord::containerId).containsExactly(allocated.id());
    assertThat(model.preempting().due(KILL_AT + 1).killed()).isEmpty();
  }

  @Test
  void aPolicyThatDecidesItsKillsHasOnlyTheNamedOnesKilledAndACancelledOneEndsUntouched() {
    model.preempting().start(decision(running.id(), allocated.id()), NOW, KILL_AT);
    Preempting.Due due = model.preempting().killNow(List.of(running.id(), "container_not_preempted"));
    assertThat(due.killed()).extracting(PreemptionRecord::containerId).containsExactly(running.id());
    assertThat(due.toRelease()).isEmpty();
    assertThat(model.node(NODE).toKill).containsExactly(running.id());

    PreemptionRecord cancelled = model.preempting().cancel(allocated.id());
    assertThat(cancelled.containerId()).isEqualTo(allocated.id());
    assertThat(model.preempting().ids()).containsOnly(running.id());
    assertThat(model.preempting().cancel(allocated.id())).isNull();
    // Past its kill time, a cancelled preemption is not due.
    assertThat(model.preempting().due(KILL_AT).toRelease()).isEmpty();
  }

  private static Preemption decision(String... containerIds) {
    var starved = new Starvation.StarvedApp(STARVED, "root.b", GB, Resource.NONE, Resource.of(4096, 4),
        Resource.NONE, Resource.of(4096, 4), 0.5, Duration.ofSeconds(15), 0);
    var victim = new PreemptionDecision.Victim(VICTIM, "root.a", List.of(containerIds), 0, GB,
        Resource.of(2048, 2), Resource.of(3072, 3), Resource.of(2048, 2));
    return FairPolicySet.preemption(new PreemptionDecision(STARVED, NODE, List.of(containerIds), GB, "starved b",
        new PreemptionDecision.Reason(starved, null, GB, Resource.NONE, List.of(victim))));
  }
}
