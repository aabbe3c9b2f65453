package dev.bobbin.core.scheduler;

import static dev.bobbin.core.scheduler.ModelFixtures.APP;
import static dev.bobbin.core.scheduler.ModelFixtures.ATTEMPT;
import static dev.bobbin.core.scheduler.ModelFixtures.GB;
import static dev.bobbin.core.scheduler.ModelFixtures.NODE;
import static dev.bobbin.core.scheduler.ModelFixtures.addAttempt;
import static dev.bobbin.core.scheduler.ModelFixtures.addNode;
import static dev.bobbin.core.scheduler.ModelFixtures.place;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.Resource;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Which allocations and AMs the scheduler's tick finds expired, read from the model's indexes. */
class SchedulerModelExpiryTest {
  private static final String APP_2 = "application_1795502072393_0002";
  private static final String ATTEMPT_2 = "appattempt_1795502072393_0002_000001";

  private final SchedulerModel model = new SchedulerModel();
  private SchedNode node;

  @BeforeEach
  void oneNode() {
    node = addNode(model, NODE, Resource.of(16384, 16));
  }

  @Test
  void onlyDurableAllocationsNotYetStartedExpireOldestFirst() {
    addAttempt(model, APP, ATTEMPT, "alice");
    SchedContainer inFlight = place(model, APP, ATTEMPT, SchedContainer.Phase.IN_FLIGHT, 1);
    SchedContainer later = place(model, APP, ATTEMPT, SchedContainer.Phase.IN_FLIGHT, 30);
    SchedContainer earlier = place(model, APP, ATTEMPT, SchedContainer.Phase.IN_FLIGHT, 20);
    SchedContainer started = place(model, APP, ATTEMPT, SchedContainer.Phase.ALLOCATED, 10);
    // Writes may be acknowledged out of order: the expiry goes by allocation time all the same.
    model.setPhase(later, SchedContainer.Phase.ALLOCATED);
    model.setPhase(earlier, SchedContainer.Phase.ALLOCATED);
    model.readReport(node, List.of(ContainerStatus.running(started.id(), GB)));

    // Neither the one still in flight (placed at 1) nor the started one (10) is there.
    assertThat(model.unstartedBefore(20)).isEmpty();
    assertThat(model.unstartedBefore(21)).containsExactly(earlier);
    assertThat(model.unstartedBefore(100)).containsExactly(earlier, later).doesNotContain(inFlight);

    model.startCompletion(earlier);
    assertThat(model.unstartedBefore(100)).containsExactly(later);
    model.untrack(later.id());
    assertThat(model.unstartedBefore(100)).isEmpty();
  }

  @Test
  void aRecoveredAllocationNotYetStartedExpiresByTheTimeTheJournalGivesIt() {
    addAttempt(model, APP, ATTEMPT, "alice");
    var alloc = new ContainerEntity.Allocation("container_e1_1795502072393_0001_01_000002", APP, ATTEMPT, NODE,
        "host-0:8042", GB, 1, 0, false);
    SchedContainer recovered = new SchedContainer(alloc, 5);
    recovered.phase = SchedContainer.Phase.ALLOCATED;
    model.countOn(node, recovered);
    SchedContainer placed = place(model, APP, ATTEMPT, SchedContainer.Phase.ALLOCATED, 50);

    assertThat(model.unstartedBefore(100)).containsExactly(recovered, placed);
    // The same container counted again (adopted after all) replaces the first in the index.
    SchedContainer again = new SchedContainer(alloc, 5);
    again.phase = SchedContainer.Phase.RUNNING;
    model.countOn(node, again);
    assertThat(model.unstartedBefore(100)).containsExactly(placed);
  }

  @Test
  void anAmLastHeardFromBeforeTheCutoffIsSilentUntilItIsHeardFromAgain() {
    SchedApp first = addAttempt(model, APP, ATTEMPT, "alice");
    SchedApp second = addAttempt(model, APP_2, ATTEMPT_2, "bob");
    assertThat(model.amsSilentSince(100)).as("no AM is watched before it is first heard from").isEmpty();

    model.heardFromAm(first, 1);
    model.heardFromAm(second, 2);
    assertThat(model.amsSilentSince(3)).containsExactly(first, second);

    model.heardFromAm(first, 10);
    assertThat(model.amsSilentSince(10)).containsExactly(second);
    assertThat(model.amsSilentSince(11)).containsExactly(second, first);
    assertThat(first.lastAmContact).isEqualTo(10);
  }

  @Test
  void aNewAttemptAndAnEndedApplicationAreNoLongerWatched() {
    SchedApp first = addAttempt(model, APP, ATTEMPT, "alice");
    SchedApp second = addAttempt(model, APP_2, ATTEMPT_2, "bob");
    model.heardFromAm(first, 1);
    model.heardFromAm(second, 2);

    first.startAttempt("appattempt_1795502072393_0001_000002");
    model.removeApp(APP_2);
    assertThat(model.amsSilentSince(100)).isEmpty();

    // The new attempt's AM is watched from when it is first heard from.
    model.heardFromAm(first, 50);
    assertThat(model.amsSilentSince(100)).containsExactly(first);
  }
}
