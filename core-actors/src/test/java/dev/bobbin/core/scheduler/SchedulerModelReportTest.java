package dev.bobbin.core.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.Assignment;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.Resource;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What a NodeManager's report of its containers means for the model (registration and heartbeat alike). */
class SchedulerModelReportTest {
  private static final String APP = "application_1795502072393_0001";
  private static final String ATTEMPT = "appattempt_1795502072393_0001_000001";
  private static final String NODE = "node-0";
  private static final Resource GB = Resource.of(1024, 1);

  private final SchedulerModel model = new SchedulerModel();
  private SchedNode node;

  @BeforeEach
  void anAttemptOnOneNode() {
    node = new SchedNode(new NodeEntity.Registration(NODE, "host-0", "host-0:8042", "/default-rack",
        Resource.of(8192, 8)), 0);
    model.nodes.put(NODE, node);
    SchedApp app = new SchedApp(model.waiting, APP, "a", "alice", 0, 0, GB, null);
    app.startAttempt(ATTEMPT);
    model.apps.put(APP, app);
    model.appsByAttempt.put(ATTEMPT, app);
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
    Ask ask = new Ask(1, Ask.ANY, GB, 1, true, 0, false);
    SchedContainer c = model.place(new Assignment(APP, ATTEMPT, NODE, ask, "test"), 1, 0);
    c.phase = phase;
    c.confirmed = false;
    return c;
  }
}
