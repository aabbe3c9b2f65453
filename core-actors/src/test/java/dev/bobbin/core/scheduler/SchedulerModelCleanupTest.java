package dev.bobbin.core.scheduler;

import static dev.bobbin.core.scheduler.ModelFixtures.APP;
import static dev.bobbin.core.scheduler.ModelFixtures.ATTEMPT;
import static dev.bobbin.core.scheduler.ModelFixtures.GB;
import static dev.bobbin.core.scheduler.ModelFixtures.addAttempt;
import static dev.bobbin.core.scheduler.ModelFixtures.addNode;
import static dev.bobbin.core.scheduler.ModelFixtures.place;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.config.SchedulerPolicy;
import dev.bobbin.config.SchedulerSettings;
import dev.bobbin.core.app.AppState;
import dev.bobbin.core.app.ApplicationEntity;
import dev.bobbin.core.app.Attempt;
import dev.bobbin.core.app.AttemptState;
import dev.bobbin.core.app.PreemptionHistory;
import dev.bobbin.core.app.Submission;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.core.policy.PolicyConfig;
import dev.bobbin.core.policy.PolicySet;
import dev.bobbin.core.policies.PolicySets;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.FinalApplicationStatus;
import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.Resource;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which containers an application's end releases, and which nodes are told to clean it up. */
class SchedulerModelCleanupTest {
  private static final String APP_2 = "application_1795502072393_0002";
  private static final String ATTEMPT_2 = "appattempt_1795502072393_0002_000001";
  private static final String SECOND_ATTEMPT = "appattempt_1795502072393_0001_000002";
  private static final Resource NODE_SIZE = Resource.of(16384, 16);

  private static final PolicySet FIFO = PolicySets.create(new PolicyConfig(new SchedulerSettings(SchedulerPolicy.FIFO,
      List.of("default"), 1024, 1, 8192, 4, Duration.ofMillis(100), 2000, 0.5), null));

  private final SchedulerModel model = new SchedulerModel();

  private void threeNodes() {
    for (int i = 0; i < 3; i++) addNode(model, "node-" + i, NODE_SIZE);
  }

  private List<String> told(String nodeId) {
    return List.copyOf(model.node(nodeId).appsToCleanup);
  }

  @Test
  void anEndedApplicationIsCleanedUpOnceAndOnlyOnTheNodesItRanOn() {
    threeNodes();
    addAttempt(model, APP, ATTEMPT, "alice");
    addAttempt(model, APP_2, ATTEMPT_2, "bob");
    SchedContainer finishedEarlier = place(model, APP, ATTEMPT, "node-1", SchedContainer.Phase.RUNNING, 1);
    place(model, APP, ATTEMPT, "node-0", SchedContainer.Phase.RUNNING, 2);
    place(model, APP_2, ATTEMPT_2, "node-2", SchedContainer.Phase.RUNNING, 3);
    model.startCompletion(finishedEarlier);
    model.untrack(finishedEarlier.id());

    model.removeApp(APP);
    model.cleanup().cleanUpOnNodes(APP);
    assertThat(told("node-0")).containsExactly(APP);
    assertThat(told("node-1")).as("a node whose container of it already finished").containsExactly(APP);
    assertThat(told("node-2")).isEmpty();

    model.nodes().forEach(n -> n.appsToCleanup.clear());
    model.cleanup().cleanUpOnNodes(APP);
    assertThat(model.nodes()).allSatisfy(n -> assertThat(n.appsToCleanup).isEmpty());
  }

  @Test
  void anApplicationsLiveContainersAreFoundWhateverTheirAttemptUntilTheyAreUntracked() {
    threeNodes();
    SchedApp app = addAttempt(model, APP, ATTEMPT, "alice");
    addAttempt(model, APP_2, ATTEMPT_2, "bob");
    SchedContainer first = place(model, APP, ATTEMPT, "node-0", SchedContainer.Phase.RUNNING, 1);
    model.startAttempt(app, SECOND_ATTEMPT);
    SchedContainer second = place(model, APP, SECOND_ATTEMPT, "node-1", SchedContainer.Phase.ALLOCATED, 2);
    SchedContainer other = place(model, APP_2, ATTEMPT_2, "node-0", SchedContainer.Phase.RUNNING, 3);

    assertThat(model.liveContainersOf(APP)).containsExactly(first, second);
    assertThat(model.liveContainersOf(APP_2)).containsExactly(other);
    model.untrack(first.id());
    assertThat(model.liveContainersOf(APP)).containsExactly(second);
    model.unplace(second);
    assertThat(model.liveContainersOf(APP)).isEmpty();
  }

  @Test
  void aPlacementOfAnEndedAttemptWhoseWriteFailedNoLongerCountsAgainstItsApplication() {
    threeNodes();
    SchedApp app = addAttempt(model, APP, ATTEMPT, "alice");
    SchedContainer inFlight = place(model, APP, ATTEMPT, "node-0", SchedContainer.Phase.IN_FLIGHT, 1);
    model.startAttempt(app, SECOND_ATTEMPT);
    assertThat(app.used()).isEqualTo(GB);

    model.unplace(inFlight);
    assertThat(app.used()).isEqualTo(Resource.NONE);
    assertThat(app.containers).isEmpty();
  }

  @Test
  void aRegistrationAddsItsNodeForTheLiveApplicationsItReportsAndReturnsTheOthersToLookUp() {
    threeNodes();
    addAttempt(model, APP, ATTEMPT, "alice");
    assertThat(model.cleanup().ranOnReported("node-1", List.of(APP, APP_2))).containsExactly(APP_2);
    assertThat(model.cleanup().ranOnReported("node-2", List.of(APP_2))).containsExactly(APP_2);

    model.cleanup().cleanUpOnNodes(APP);
    model.cleanup().cleanUpOnNodes(APP_2);
    assertThat(told("node-0")).isEmpty();
    assertThat(told("node-1")).containsExactly(APP);
    assertThat(told("node-2")).isEmpty();
  }

  @Test
  void aReportedApplicationThatEndedIsCleanedUpOnItsNodeAndOneBetweenAttemptsAtItsEnd() {
    threeNodes();
    // APP ended while a member that died held its clean-up; APP_2 is between attempts.
    List<String> unknown = model.cleanup().ranOnReported("node-1", List.of(APP, APP_2));
    assertThat(unknown).containsExactly(APP, APP_2);
    model.cleanup().reportedAppLookedUp("node-1", APP, true);
    model.cleanup().reportedAppLookedUp("node-1", APP_2, false);
    assertThat(told("node-1")).containsExactly(APP);

    model.cleanup().cleanUpOnNodes(APP_2);
    assertThat(told("node-1")).containsExactly(APP, APP_2);
    assertThat(told("node-0")).isEmpty();
  }

  @Test
  void aReportedApplicationWhoseAmContainerIsLeftToExitIsCleanedUpOnlyOnceItHas() {
    threeNodes();
    model.cleanup().leaveAmToExit("container_am", APP, Long.MAX_VALUE);
    assertThat(model.cleanup().ranOnReported("node-1", List.of(APP))).isEmpty();
    // Also when the application had started its end only after the node was looked up.
    model.cleanup().reportedAppLookedUp("node-2", APP, true);
    assertThat(told("node-1")).isEmpty();
    assertThat(told("node-2")).isEmpty();

    // Its completion is durable.
    model.cleanup().ended("container_am");
    assertThat(told("node-1")).containsExactly(APP);
    assertThat(told("node-2")).containsExactly(APP);
  }

  @Test
  void aRecoveredApplicationThatEndedIsCleanedUpAtOnceUnlessItsAmContainerIsLeftToExit() {
    Map<String, NodeEntity.State> nodes = new HashMap<>();
    for (int i = 0; i < 3; i++) {
      var reg = new NodeEntity.Registration("node-" + i, "host-" + i, "host-" + i + ":8042", "/default-rack", NODE_SIZE);
      nodes.put("node-" + i, new NodeEntity.State(reg, NodeState.RUNNING, 1, ""));
    }
    Map<String, ContainerEntity.State> containers = new HashMap<>();
    // The killed application's worker still runs on node-1.
    running(containers, APP, ATTEMPT, 2, "node-1", false);
    // The finished one's AM container is still exiting on node-2, its worker still running on node-0.
    running(containers, APP_2, ATTEMPT_2, 1, "node-2", true);
    running(containers, APP_2, ATTEMPT_2, 2, "node-0", false);
    var journal = new RecoveredModel(Map.of(APP, ended(APP, ATTEMPT, AppState.KILLED),
        APP_2, ended(APP_2, ATTEMPT_2, AppState.FINISHED)), containers, nodes);

    Recovery.rebuild(model, FIFO, journal, 100, 600_000);
    assertThat(model.apps()).isEmpty();
    assertThat(told("node-0")).isEmpty();
    assertThat(told("node-1")).containsExactly(APP);
    assertThat(told("node-2")).isEmpty();
    assertThat(model.cleanup().amsLeftToExit()).hasSize(1);

    model.cleanup().cleanUpOnNodes(APP_2);
    assertThat(told("node-0")).containsExactly(APP_2);
    assertThat(told("node-2")).containsExactly(APP_2);
  }

  @Test
  void aRecoveredApplicationBetweenAttemptsIsNotCleanedUpButKeepsItsNodesForItsEnd() {
    var reg = new NodeEntity.Registration("node-0", "host-0", "host-0:8042", "/default-rack", NODE_SIZE);
    Map<String, ContainerEntity.State> containers = new HashMap<>();
    running(containers, APP, ATTEMPT, 2, "node-0", false);
    ApplicationEntity.State failedAttempt = ended(APP, ATTEMPT, AppState.KILLED);
    ApplicationEntity.State between = new ApplicationEntity.State(APP, null, failedAttempt.submission(), AppState.RUNNING,
        FinalApplicationStatus.UNDEFINED, "", 1, 0, failedAttempt.attempts(), PreemptionHistory.NONE, Set.of());
    var journal = new RecoveredModel(Map.of(APP, between), containers,
        Map.of("node-0", new NodeEntity.State(reg, NodeState.RUNNING, 1, "")));

    Recovery.rebuild(model, FIFO, journal, 100, 600_000);
    assertThat(model.apps()).as("its next attempt has not started").isEmpty();
    assertThat(told("node-0")).isEmpty();

    model.cleanup().cleanUpOnNodes(APP);
    assertThat(told("node-0")).containsExactly(APP);
  }

  private static void running(Map<String, ContainerEntity.State> into, String appId, String attemptId, int seq,
      String nodeId, boolean am) {
    String id = "container_e1_" + appId.substring("application_".length()) + "_01_00000" + seq;
    var alloc = new ContainerEntity.Allocation(id, appId, attemptId, nodeId, nodeId + ":8042", GB, am ? 0 : 1, -1, am);
    into.put(id, new ContainerEntity.State(alloc, ContainerEntity.Phase.RUNNING, 1, 2, 0, -1000, "", null, false));
  }

  private static ApplicationEntity.State ended(String appId, String attemptId, AppState state) {
    var sub = new Submission(appId, "n", "alice", "default", 0, "YARN", List.of(), GB,
        new ContainerLaunchContext(List.of("am"), Map.of()), 2);
    var attempt = new Attempt(attemptId, 1, AttemptState.FINISHED, 1, 5, "", "", "", "", 0, "", 0, "");
    FinalApplicationStatus status = state == AppState.KILLED ? FinalApplicationStatus.KILLED
        : FinalApplicationStatus.SUCCEEDED;
    return new ApplicationEntity.State(appId, null, sub, state, status, "", 1, 5, List.of(attempt), PreemptionHistory.NONE, Set.of());
  }
}
