package dev.bobbin.core.scheduler;

import static dev.bobbin.core.scheduler.ModelFixtures.APP;
import static dev.bobbin.core.scheduler.ModelFixtures.ATTEMPT;
import static dev.bobbin.core.scheduler.ModelFixtures.GB;
import static dev.bobbin.core.scheduler.ModelFixtures.NODE;
import static dev.bobbin.core.scheduler.ModelFixtures.addAttempt;
import static dev.bobbin.core.scheduler.ModelFixtures.addNode;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.app.PreemptionRecord;
import dev.bobbin.core.policy.AllocationLimits;
import dev.bobbin.core.scheduler.SchedulerProtocol.AmOutcome;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.am.AllocateRequest;
import dev.bobbin.protocol.am.AllocateResponse;
import dev.bobbin.protocol.am.PreemptionMessage;
import dev.bobbin.protocol.am.Container;
import dev.bobbin.protocol.am.RegisterAmResponse;
import dev.bobbin.protocol.am.ResourceRequest;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The AM protocol's bookkeeping: response ids, what a response hands over, and when it counts as delivered. */
class AmProtocolTest {
  private static final String OTHER_ATTEMPT = "appattempt_1795502072393_0002_000001";

  private final SchedulerModel model = new SchedulerModel();
  private final AmProtocol am = new AmProtocol(model,
      new AllocationLimits(Resource.of(1024, 1), Resource.of(8192, 4)));
  private SchedApp app;

  @BeforeEach
  void anAttemptOnOneNode() {
    addNode(model, NODE, Resource.of(8192, 8));
    app = addAttempt(model, APP, ATTEMPT, "alice");
    app.clearAsks(); // its AM container is placed: only what the AM asks for is left
  }

  @Test
  void anUnknownAttemptAndAnUnregisteredAmAreRefusedWithYarnsExceptions() {
    assertThat(am.register(OTHER_ATTEMPT, 5).exception()).isEqualTo("ApplicationAttemptNotFoundException");
    assertThat(am.allocate(OTHER_ATTEMPT, request(0), 5).reply().exception())
        .isEqualTo("ApplicationAttemptNotFoundException");

    AmProtocol.AllocateStep step = am.allocate(ATTEMPT, request(0), 5);
    assertThat(step.reply().exception()).isEqualTo("ApplicationMasterNotRegisteredException");
    assertThat(step.asked()).isFalse();
    assertThat(app.lastAmContact).isZero();
  }

  @Test
  void registeringTellsTheMaximumAndTheQueueAndStartsResponseIdsAtZero() {
    AmOutcome<RegisterAmResponse> r = am.register(ATTEMPT, 5);

    assertThat(r.response().maximumCapability()).isEqualTo(Resource.of(8192, 4));
    assertThat(r.response().queue()).isEqualTo("a");
    assertThat(app.registered).isTrue();
    assertThat(app.lastAmContact).isEqualTo(5);
    assertThat(app.lastResponse.responseId()).isZero();
  }

  @Test
  void aResponseHandsOverWhatWasWaitingOnceAndAResentIdGetsTheSameResponseAgain() {
    am.register(ATTEMPT, 5);
    Container allocated = new Container("container_1", NODE, "host-0:8042", GB, 1, "token", 0);
    ContainerStatus finished = ContainerStatus.completed("container_2", 0, "", GB);
    app.newlyAllocated.add(allocated);
    app.completed.add(finished);

    AmProtocol.AllocateStep first = am.allocate(ATTEMPT, request(0), 6);
    AllocateResponse r = first.reply().response();
    assertThat(r.responseId()).isEqualTo(1);
    assertThat(r.allocatedContainers()).containsExactly(allocated);
    assertThat(r.completedContainerStatuses()).containsExactly(finished);
    assertThat(first.asked()).isTrue();
    assertThat(app.newlyAllocated).isEmpty();
    assertThat(app.completed).isEmpty();

    // The response was lost on the way: asking with the previous id again gets it again, and nothing more.
    AmProtocol.AllocateStep again = am.allocate(ATTEMPT, request(0), 7);
    assertThat(again.reply().response()).isSameAs(r);
    assertThat(again.delivered()).isEmpty();
    assertThat(again.asked()).isFalse();
    assertThat(app.lastAmContact).isEqualTo(7);
  }

  @Test
  void completionsCountAsDeliveredOnlyWhenTheAmAsksWithTheResponseThatCarriedThem() {
    am.register(ATTEMPT, 5);
    app.completed.add(ContainerStatus.completed("container_2", 0, "", GB));
    app.completed.add(ContainerStatus.completed("container_3", 1, "failed", GB));

    assertThat(am.allocate(ATTEMPT, request(0), 6).delivered()).isEmpty();
    AmProtocol.AllocateStep acknowledged = am.allocate(ATTEMPT, request(1), 7);
    assertThat(acknowledged.appId()).isEqualTo(APP);
    assertThat(acknowledged.delivered()).containsExactly("container_2", "container_3");
    assertThat(am.allocate(ATTEMPT, request(2), 8).delivered()).isEmpty();
  }

  @Test
  void completionsOfAnUnacknowledgedResponseGoOutAgainWhenTheAmAsksAgainAlsoAfterALateRegister() {
    am.register(ATTEMPT, 5);
    ContainerStatus finished = ContainerStatus.completed("container_2", 0, "", GB);
    app.completed.add(finished);
    AllocateResponse lost = am.allocate(ATTEMPT, request(0), 6).reply().response();

    am.register(ATTEMPT, 7);
    AmProtocol.AllocateStep again = am.allocate(ATTEMPT, request(0), 8);

    assertThat(again.reply().response()).isSameAs(lost);
    assertThat(again.reply().response().responseId()).isEqualTo(1);
    assertThat(again.reply().response().completedContainerStatuses()).containsExactly(finished);
    assertThat(again.delivered()).isEmpty();
    assertThat(am.allocate(ATTEMPT, request(1), 9).delivered()).containsExactly("container_2");
  }

  @Test
  void aLateOrRepeatedRegisterAfterSevenAllocatesAnswersAsTheFirstAndResetsNothing() {
    AmOutcome<RegisterAmResponse> first = am.register(ATTEMPT, 5);
    int responseId = 0;
    for (int i = 0; i < 7; i++) responseId = am.allocate(ATTEMPT, request(responseId), 6 + i).reply().response().responseId();
    assertThat(responseId).isEqualTo(7);
    Container waiting = new Container("container_1", NODE, "host-0:8042", GB, 1, "token", 0);
    ContainerStatus finished = ContainerStatus.completed("container_2", 0, "", GB);
    app.newlyAllocated.add(waiting);
    app.completed.add(finished);

    AmOutcome<RegisterAmResponse> late = am.register(ATTEMPT, 20);

    assertThat(late).isEqualTo(first);
    assertThat(app.lastResponse.responseId()).isEqualTo(7);
    AllocateResponse next = am.allocate(ATTEMPT, request(7), 21).reply().response();
    assertThat(next.responseId()).isEqualTo(8);
    assertThat(next.allocatedContainers()).containsExactly(waiting);
    assertThat(next.completedContainerStatuses()).containsExactly(finished);
  }

  @Test
  void anAmOfAnEarlierRegistrationIsToldToRegisterWhenALateRegisterReachedThisSchedulerFirst() {
    // A recovered scheduler heard a register the AM sent before the failover; the AM is at 12.
    am.register(ATTEMPT, 5);

    AmProtocol.AllocateStep step = am.allocate(ATTEMPT, request(12), 6);
    assertThat(step.reply().exception()).isEqualTo("ApplicationMasterNotRegisteredException");
    assertThat(step.asked()).isFalse();

    // It registers again, which changes nothing here, and starts at 0.
    am.register(ATTEMPT, 7);
    assertThat(am.allocate(ATTEMPT, request(0), 8).reply().response().responseId()).isEqualTo(1);
  }

  @Test
  void aResponseIdOutOfStepIsRefusedAndChangesNothing() {
    am.register(ATTEMPT, 5);
    am.allocate(ATTEMPT, request(0), 6);
    app.completed.add(ContainerStatus.completed("container_2", 0, "", GB));

    // Neither the current id (1) nor the one before (0, a retry of the call that was answered).
    AmProtocol.AllocateStep step = am.allocate(ATTEMPT,
        new AllocateRequest(4, 0.5f, List.of(ResourceRequest.any(1, GB, 3)), List.of()), 7);

    assertThat(step.reply().exception()).isEqualTo("InvalidApplicationMasterRequestException");
    assertThat(step.reply().message()).contains("expect responseId to be 1, but get 4");
    assertThat(step.asked()).isFalse();
    assertThat(app.asks()).isEmpty();
    assertThat(app.completed).hasSize(1);
    assertThat(app.lastResponse.responseId()).isEqualTo(1);
  }

  @Test
  void asksAreNormalizedToTheLimitsAndReplaceTheirKeysCountAndProgressIsClamped() {
    am.register(ATTEMPT, 5);
    am.allocate(ATTEMPT, new AllocateRequest(0, 7f, List.of(ResourceRequest.any(1, Resource.of(100, 9), 3)),
        List.of()), 6);
    assertThat(app.progress).isEqualTo(1f);
    assertThat(app.asks()).singleElement().satisfies(a -> {
      assertThat(a.capability()).isEqualTo(Resource.of(1024, 4));
      assertThat(a.count()).isEqualTo(3);
    });

    am.allocate(ATTEMPT, new AllocateRequest(1, Float.NaN, List.of(ResourceRequest.any(1, Resource.of(100, 9), 1)),
        List.of()), 7);
    assertThat(app.progress).isZero();
    assertThat(app.asks()).singleElement().satisfies(a -> assertThat(a.count()).isEqualTo(1));
  }

  @Test
  void anAmReleasesOnlyItsOwnAttemptsContainers() {
    am.register(ATTEMPT, 5);
    SchedContainer own = place(APP, ATTEMPT);
    SchedApp other = addAttempt(model, "application_1795502072393_0002", OTHER_ATTEMPT, "bob");
    SchedContainer foreign = place(other.appId, OTHER_ATTEMPT);

    AmProtocol.AllocateStep step = am.allocate(ATTEMPT,
        new AllocateRequest(0, 0, List.of(), List.of(own.id(), foreign.id(), "container_gone")), 6);

    assertThat(step.toRelease()).containsExactly(own);
  }

  @Test
  void aResponseCarriesAStrictPreemptionMessageForTheAttemptsContainersBeingTakenBack() {
    am.register(ATTEMPT, 5);
    SchedContainer taken = place(APP, ATTEMPT);
    place(APP, ATTEMPT);
    model.preempting().resume(new PreemptionRecord(taken.id(), APP,
        "application_1795502072393_0002", "root.b", "FAIR_SHARE", GB, false, 5, 15_005, "starved b"));
    String otherApp = "application_1795502072393_0003";
    addAttempt(model, otherApp, "appattempt_1795502072393_0003_000001", "carol");
    SchedContainer othersTaken = place(otherApp, "appattempt_1795502072393_0003_000001");
    model.preempting().resume(new PreemptionRecord(othersTaken.id(), otherApp,
        "application_1795502072393_0002", "root.b", "FAIR_SHARE", GB, false, 5, 15_005, "starved b"));

    AllocateResponse r = am.allocate(ATTEMPT, request(0), 6).reply().response();

    assertThat(r.preempt().strictContract()).singleElement().satisfies(p -> {
      assertThat(p.id()).isEqualTo(taken.id());
      assertThat(p.killAtMillis()).isEqualTo(15_005);
      assertThat(p.reason()).isEqualTo("starved b");
    });
    assertThat(am.allocate(ATTEMPT, request(1), 7).reply().response().preempt()).isNotNull();
    model.preempting().ended(taken.id());
    model.preempting().ended(othersTaken.id());
    assertThat(am.allocate(ATTEMPT, request(2), 8).reply().response().preempt()).isNull();
  }

  @Test
  void theCapacityPolicysPreemptionsAreANegotiableContractWithTheMinimumAllocationsTheyHold() {
    am.register(ATTEMPT, 5);
    SchedContainer first = place(APP, ATTEMPT);
    SchedContainer second = place(APP, ATTEMPT);
    for (SchedContainer c : List.of(first, second)) {
      model.preempting().resume(new PreemptionRecord(c.id(), APP, null, "root.b", "CAPACITY", GB, false, 5, 15_005,
          "1 GB from root.a"));
    }

    AllocateResponse r = am.allocate(ATTEMPT, request(0), 6).reply().response();

    assertThat(r.preempt().strictContract()).isEmpty();
    assertThat(r.preempt().contract()).extracting(PreemptionMessage.PreemptedContainer::id)
        .containsExactlyInAnyOrder(first.id(), second.id());
    assertThat(r.preempt().contractResources()).singleElement().satisfies(rr -> {
      assertThat(rr.resourceName()).isEqualTo("*");
      assertThat(rr.capability()).isEqualTo(new Resource(1024, 1));
      assertThat(rr.numContainers()).isEqualTo(2);
      assertThat(rr.priority()).isEqualTo(-1);
    });
  }

  @Test
  void theQueuesAllocationLimitsAreTheOnesAnAmHearsOfAndItsAsksAreCappedWith() {
    AllocationLimits scheduler = new AllocationLimits(Resource.of(1024, 1), Resource.of(8192, 4));
    AmProtocol capped = new AmProtocol(model, scheduler,
        leaf -> new AllocationLimits(scheduler.minimum(), Resource.of(2048, 4)));
    assertThat(capped.register(ATTEMPT, 5).response().maximumCapability()).isEqualTo(Resource.of(2048, 4));
    capped.allocate(ATTEMPT, new AllocateRequest(0, 0,
        List.of(new ResourceRequest(1, "*", Resource.of(4096, 1), 1, true, -1)), List.of()), 6);
    assertThat(app.asks()).singleElement().satisfies(a -> assertThat(a.capability()).isEqualTo(Resource.of(2048, 1)));
  }

  @Test
  void theHeadroomIsTheFreeSpaceOfTheUsableNodesAsOfTheLastRefresh() {
    am.register(ATTEMPT, 5);
    place(APP, ATTEMPT);
    SchedNode lost = addNode(model, "node-1", Resource.of(8192, 8));
    lost.state = NodeState.LOST;
    am.refreshHeadroom();
    place(APP, ATTEMPT);

    AllocateResponse r = am.allocate(ATTEMPT, request(0), 6).reply().response();
    assertThat(r.limit()).isEqualTo(Resource.of(7168, 7));
    assertThat(r.numClusterNodes()).isEqualTo(1);
    am.refreshHeadroom();
    assertThat(am.allocate(ATTEMPT, request(1), 7).reply().response().limit()).isEqualTo(Resource.of(6144, 6));
  }

  private static AllocateRequest request(int responseId) {
    return new AllocateRequest(responseId, 0, List.of(), List.of());
  }

  private SchedContainer place(String appId, String attemptId) {
    return ModelFixtures.place(model, appId, attemptId, SchedContainer.Phase.RUNNING, 0);
  }
}
