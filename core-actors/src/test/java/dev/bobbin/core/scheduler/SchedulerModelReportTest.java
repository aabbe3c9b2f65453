package dev.bobbin.core.scheduler;

import static dev.bobbin.core.scheduler.ModelFixtures.APP;
import static dev.bobbin.core.scheduler.ModelFixtures.ATTEMPT;
import static dev.bobbin.core.scheduler.ModelFixtures.GB;
import static dev.bobbin.core.scheduler.ModelFixtures.NODE;
import static dev.bobbin.core.scheduler.ModelFixtures.addAttempt;
import static dev.bobbin.core.scheduler.ModelFixtures.addNode;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.Resource;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What a NodeManager's report of its containers means for the model (registration and heartbeat alike). */
class SchedulerModelReportTest {
  private final SchedulerModel model = new SchedulerModel();
  private SchedNode node;

  @BeforeEach
  void anAttemptOnOneNode() {
    node = addNode(model, NODE, Resource.of(8192, 8));
    addAttempt(model, APP, ATTEMPT, "alice");
  }

  @Test
  void aContainerReportedRunningForTheFirstTimeStartsAndIsConfirmedOnce() {
    SchedContainer c = place(SchedContainer.Phase.ALLOCATED);

    SchedulerModel.ReportedContainers first = model.readReport(node, List.of(ContainerStatus.running(c.id(), GB)));
    assertThat(first.started()).containsExactly(c.id());
    assertThat(c.phase).isEqualTo(SchedContainer.Phase.RUNNING);
    assertThat(c.confirmed).isTrue();

    SchedulerModel.ReportedContainers next = model.readReport(node, List.of(ContainerStatus.running(c.id(), GB)));
    assertThat(next.started()).isEmpty();
    assertThat(next.completed()).isEmpty();
    assertThat(next.unknown()).isEmpty();
  }

  @Test
  void aKnownContainerReportedFinishedIsToBeCompletedAndCountsAsConfirmed() {
    SchedContainer c = place(SchedContainer.Phase.RUNNING);
    ContainerStatus done = ContainerStatus.completed(c.id(), 143, "killed", GB);

    SchedulerModel.ReportedContainers r = model.readReport(node, List.of(done));

    assertThat(r.completed()).containsExactly(done);
    // Confirmed: a recovering scheduler must not abort it again over the exit status the NM reported.
    assertThat(c.confirmed).isTrue();
    assertThat(node.toRemoveFromNm).isEmpty();
  }

  @Test
  void anUnknownRunningContainerIsLookedUpAndAnUnknownFinishedOneIsAcknowledgedAtOnce() {
    SchedulerModel.ReportedContainers r = model.readReport(node, List.of(
        ContainerStatus.running("container_unknown_running", GB),
        ContainerStatus.completed("container_unknown_done", 0, "", GB)));

    assertThat(r.unknown()).containsExactly("container_unknown_running");
    assertThat(r.completed()).isEmpty();
    assertThat(node.toRemoveFromNm).containsExactly("container_unknown_done");
  }

  private SchedContainer place(SchedContainer.Phase phase) {
    SchedContainer c = ModelFixtures.place(model, APP, ATTEMPT, phase, 0);
    c.confirmed = false;
    return c;
  }
}
