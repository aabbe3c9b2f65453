package dev.bobbin.am;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.FinalApplicationStatus;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.Tokens;
import dev.bobbin.protocol.am.Container;
import dev.bobbin.protocol.am.ResourceRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.annotations.JUnit5TestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.FishingOutcomes;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJUnit5Extension;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.pattern.StatusReply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestKitJUnit5Extension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AmClientTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final ContainerRequest SMALL = ContainerRequest.any(Resource.of(512, 1), 1);

  @JUnit5TestKit public final ActorTestKit testKit = ActorTestKit.create();
  private final List<ActorRef<AmClient.Command>> clients = new ArrayList<>();

  @AfterEach
  void stopClients() {
    clients.forEach(testKit::stop);
    clients.clear();
  }

  @Test
  void registersAllocatesAndUnregistersRetryingUntilDurable() throws Exception {
    try (TestingRm rm = TestingRm.start(1)) {
      TestProbe<AmEvent> events = testKit.createTestProbe();
      ActorRef<AmClient.Command> client = spawn(rm, rm.addresses(), events);

      AmEvent.Registered registered = events.expectMessageClass(AmEvent.Registered.class, WAIT);
      assertThat(registered.afterResync()).isFalse();
      assertThat(registered.response().queue()).isEqualTo("root.default");

      client.tell(new AmClient.AddContainerRequest(SMALL));
      client.tell(new AmClient.AddContainerRequest(SMALL));
      List<Container> containers = allocated(events, 2);
      assertThat(containers).extracting(Container::id).doesNotHaveDuplicates();
      assertThat(containers).allSatisfy(c ->
          assertThat(Tokens.verifyContainerToken(c.containerToken(), TestingRm.SECRET).containerId()).isEqualTo(c.id()));

      rm.finishesNotYetDurable.set(2);
      client.tell(new AmClient.SetProgress(1f));
      StatusReply<Done> reply = unregister(client, FinalApplicationStatus.SUCCEEDED, "all good");

      assertThat(reply.isSuccess()).isTrue();
      assertThat(rm.finishCalls).hasSize(3).allSatisfy(f -> assertThat(f.diagnostics()).isEqualTo("all good"));
      assertThat(rm.lastFinalStatus()).isEqualTo(FinalApplicationStatus.SUCCEEDED);
      assertThat(rm.badTokens).hasValue(0);
      assertThat(rm.allocateCalls).allSatisfy(c -> assertThat(c.member()).isZero());
      events.fishForMessage(WAIT, e -> e instanceof AmEvent.Unregistered
          ? FishingOutcomes.complete()
          : FishingOutcomes.continueAndIgnore());
    }
  }

  @Test
  void outstandingAsksDecrementAsContainersArriveAndAreNotAskedAgain() throws Exception {
    try (TestingRm rm = TestingRm.start(1)) {
      rm.maxPerHeartbeat.set(1); // three heartbeats to fill the ask
      TestProbe<AmEvent> events = testKit.createTestProbe();
      ActorRef<AmClient.Command> client = spawn(rm, rm.addresses(), events);
      events.expectMessageClass(AmEvent.Registered.class, WAIT);

      for (int i = 0; i < 3; i++) client.tell(new AmClient.AddContainerRequest(SMALL));
      assertThat(allocated(events, 3)).hasSize(3);
      int callsSoFar = rm.allocateCalls.size();
      events.expectNoMessage(Duration.ofMillis(300)); // several heartbeats, nothing more comes

      assertThat(rm.handedOut).hasSize(3);
      assertThat(rm.outstandingAny()).isZero();
      assertThat(rm.allocateCalls.size()).isGreaterThan(callsSoFar + 2);
      assertThat(rm.allocateCalls.subList(callsSoFar, rm.allocateCalls.size()))
          .allSatisfy(c -> assertThat(c.request().ask()).isEmpty());
      assertThat(rm.asksSeen()).extracting(ResourceRequest::numContainers).allSatisfy(n -> assertThat(n).isBetween(1, 3));

      // The next ask is the new absolute total (1), not 3 + 1.
      client.tell(new AmClient.AddContainerRequest(SMALL));
      assertThat(allocated(events, 1)).hasSize(1);
      List<ResourceRequest> asks = rm.asksSeen();
      assertThat(asks.get(asks.size() - 1).numContainers()).isEqualTo(1);
      assertThat(rm.handedOut).hasSize(4);
    }
  }

  @Test
  void removedRequestIsCancelledWithAZeroTotal() throws Exception {
    try (TestingRm rm = TestingRm.start(1)) {
      rm.budget.set(0);
      TestProbe<AmEvent> events = testKit.createTestProbe();
      ActorRef<AmClient.Command> client = spawn(rm, rm.addresses(), events);
      events.expectMessageClass(AmEvent.Registered.class, WAIT);

      client.tell(new AmClient.AddContainerRequest(SMALL));
      client.tell(new AmClient.AddContainerRequest(SMALL));
      events.awaitAssert(WAIT, () -> assertThat(outstanding(rm)).isEqualTo(2));
      client.tell(new AmClient.RemoveContainerRequest(SMALL));
      client.tell(new AmClient.RemoveContainerRequest(SMALL));
      events.awaitAssert(WAIT, () -> assertThat(outstanding(rm)).isZero());
      List<ResourceRequest> asks = rm.asksSeen();
      assertThat(asks.get(asks.size() - 1).numContainers()).isZero();
    }
  }

  @Test
  void releasesAreSentOnce() throws Exception {
    try (TestingRm rm = TestingRm.start(1)) {
      TestProbe<AmEvent> events = testKit.createTestProbe();
      ActorRef<AmClient.Command> client = spawn(rm, rm.addresses(), events);
      events.expectMessageClass(AmEvent.Registered.class, WAIT);
      client.tell(new AmClient.AddContainerRequest(SMALL));
      Container c = allocated(events, 1).get(0);

      client.tell(new AmClient.ReleaseAssignedContainer(c.id()));
      client.tell(new AmClient.ReleaseAssignedContainer(c.id()));
      AmEvent.ContainersCompleted done = events.expectMessageClass(AmEvent.ContainersCompleted.class, WAIT);
      assertThat(done.statuses()).extracting(ContainerStatus::containerId, ContainerStatus::exitStatus)
          .containsExactly(org.assertj.core.groups.Tuple.tuple(c.id(), ExitStatus.ABORTED));
      events.expectNoMessage(Duration.ofMillis(300));

      assertThat(rm.releasesSeen()).containsExactly(c.id());
    }
  }

  @Test
  void reRegistersAndResendsAsksAndReleasesWhenTheRmForgotTheRegistration() throws Exception {
    try (TestingRm rm = TestingRm.start(1)) {
      rm.budget.set(1);
      TestProbe<AmEvent> events = testKit.createTestProbe();
      ActorRef<AmClient.Command> client = spawn(rm, rm.addresses(), events);
      events.expectMessageClass(AmEvent.Registered.class, WAIT);
      for (int i = 0; i < 3; i++) client.tell(new AmClient.AddContainerRequest(SMALL));
      Container first = allocated(events, 1).get(0);

      rm.forgetRegistration.set(true); // as after an RM restart: registration and asks are gone
      client.tell(new AmClient.ReleaseAssignedContainer(first.id()));
      AmEvent.Registered again = events.expectMessageClass(AmEvent.Registered.class, WAIT);
      assertThat(again.afterResync()).isTrue();
      rm.budget.set(Integer.MAX_VALUE);

      List<Container> rest = allocated(events, 2);
      awaitMoreHeartbeats(events, rm, 4);
      assertThat(rm.registrations).hasValue(2);
      assertThat(rm.handedOut).hasSize(3);
      assertThat(rest).extracting(Container::id).doesNotContain(first.id());
      List<TestingRm.Call> afterResync =
          rm.allocateCalls.stream().filter(c -> c.registration() == 2).toList();
      assertThat(afterResync.get(0).request().responseId()).isZero();
      assertThat(afterResync.stream().flatMap(c -> c.request().ask().stream()).toList())
          .first().satisfies(a -> {
            assertThat(a.resourceName()).isEqualTo(ResourceRequest.ANY);
            assertThat(a.numContainers()).isEqualTo(2);
          });
      assertThat(afterResync.stream().flatMap(c -> c.request().release().stream()).toList())
          .containsExactly(first.id());
    }
  }

  @Test
  void aCompletionTheRmDeliversAgainAfterAFailoverReachesTheListenerOnce() throws Exception {
    try (TestingRm rm = TestingRm.start(1)) {
      TestProbe<AmEvent> events = testKit.createTestProbe();
      ActorRef<AmClient.Command> client = spawn(rm, rm.addresses(), events);
      events.expectMessageClass(AmEvent.Registered.class, WAIT);
      client.tell(new AmClient.AddContainerRequest(SMALL));
      Container c = allocated(events, 1).get(0);
      rm.complete(c.id(), 0, "");
      assertThat(events.expectMessageClass(AmEvent.ContainersCompleted.class, WAIT).statuses())
          .extracting(ContainerStatus::containerId).containsExactly(c.id());

      // A new scheduler cannot tell that the AM had it, and sends it again with a fresh one.
      rm.forgetRegistration.set(true);
      rm.complete(c.id(), 0, "");
      rm.complete("container_e2_1_0001_01_000009", 1, "exit 1");
      assertThat(events.expectMessageClass(AmEvent.Registered.class, WAIT).afterResync()).isTrue();
      AmEvent.ContainersCompleted next = events.expectMessageClass(AmEvent.ContainersCompleted.class, WAIT);
      assertThat(next.statuses()).extracting(ContainerStatus::containerId)
          .containsExactly("container_e2_1_0001_01_000009");
    }
  }

  @Test
  void reRegistersOnAmResyncCommand() throws Exception {
    try (TestingRm rm = TestingRm.start(1)) {
      rm.budget.set(1);
      TestProbe<AmEvent> events = testKit.createTestProbe();
      ActorRef<AmClient.Command> client = spawn(rm, rm.addresses(), events);
      events.expectMessageClass(AmEvent.Registered.class, WAIT);
      client.tell(new AmClient.AddContainerRequest(SMALL));
      client.tell(new AmClient.AddContainerRequest(SMALL));
      allocated(events, 1);

      rm.sendResync.set(true);
      assertThat(events.expectMessageClass(AmEvent.Registered.class, WAIT).afterResync()).isTrue();
      rm.budget.set(Integer.MAX_VALUE);
      allocated(events, 1);
      events.expectNoMessage(Duration.ofMillis(200));

      assertThat(rm.registrations).hasValue(2);
      assertThat(rm.handedOut).hasSize(2);
      assertThat(rm.allocateCalls.stream().filter(c -> c.registration() == 2)
              .flatMap(c -> c.request().ask().stream()).findFirst())
          .hasValueSatisfying(a -> assertThat(a.numContainers()).isEqualTo(1));
    }
  }

  @Test
  void shutsDownWhenTheAttemptIsGone() throws Exception {
    try (TestingRm rm = TestingRm.start(1)) {
      TestProbe<AmEvent> events = testKit.createTestProbe();
      ActorRef<AmClient.Command> client = spawn(rm, rm.addresses(), events);
      events.expectMessageClass(AmEvent.Registered.class, WAIT);

      rm.attemptGone.set(true);
      AmEvent.ShutdownRequested shutdown = events.expectMessageClass(AmEvent.ShutdownRequested.class, WAIT);
      assertThat(shutdown.reason()).contains(AmClient.ATTEMPT_NOT_FOUND);
      assertThat(unregister(client, FinalApplicationStatus.FAILED, "x").isError()).isTrue();
    }
  }

  @Test
  void failsOverWhenTheFirstAddressIsDead() throws Exception {
    try (TestingRm rm = TestingRm.start(1)) {
      TestProbe<AmEvent> events = testKit.createTestProbe();
      // A refused connection moves on at once: registered long before a request could time out, and
      // without the backoff that other failures wait.
      ActorRef<AmClient.Command> client = spawn(rm.settings(List.of(TestingRm.deadAddress(), rm.address(0)))
          .withRetries(Duration.ofMinutes(5), Duration.ofMinutes(1), Duration.ofMinutes(1), Duration.ofMinutes(10)),
          events);

      events.expectMessageClass(AmEvent.Registered.class, WAIT);
      client.tell(new AmClient.AddContainerRequest(SMALL));
      assertThat(allocated(events, 1)).hasSize(1);
      assertThat(unregister(client, FinalApplicationStatus.SUCCEEDED, "").isSuccess()).isTrue();
    }
  }

  @Test
  void aMemberThatAcceptsButNeverAnswersCostsOneRequestTimeoutAndTheMemberThatAnsweredIsKept() throws Exception {
    try (TestingRm rm = TestingRm.start(2)) {
      rm.setSilent(0, true);
      TestProbe<AmEvent> events = testKit.createTestProbe();
      ActorRef<AmClient.Command> client = spawn(rm.settings(List.of(TestingRm.deadAddress(), rm.address(0), rm.address(1)))
          .withRetries(Duration.ofMillis(500), Duration.ofMillis(20), Duration.ofMillis(200), Duration.ofSeconds(20)),
          events);

      events.expectMessageClass(AmEvent.Registered.class, WAIT);
      client.tell(new AmClient.AddContainerRequest(SMALL));
      client.tell(new AmClient.AddContainerRequest(SMALL));
      assertThat(allocated(events, 2)).hasSize(2);
      assertThat(unregister(client, FinalApplicationStatus.SUCCEEDED, "").isSuccess()).isTrue();

      assertThat(rm.unanswered).hasValue(1);
      assertThat(rm.registerMembers).containsExactly(1);
      assertThat(rm.allocateCalls).hasSizeGreaterThan(1).allSatisfy(c -> assertThat(c.member()).isEqualTo(1));
    }
  }

  @Test
  void failsOverWhenAMemberDiesOrAnswers503MidSession() throws Exception {
    try (TestingRm rm = TestingRm.start(3)) {
      TestProbe<AmEvent> events = testKit.createTestProbe();
      ActorRef<AmClient.Command> client = spawn(rm, rm.addresses(), events);
      events.expectMessageClass(AmEvent.Registered.class, WAIT);
      assertThat(rm.registerMembers).containsExactly(0);

      rm.kill(0);
      rm.setUnavailable(1, true);
      client.tell(new AmClient.AddContainerRequest(SMALL));
      assertThat(allocated(events, 1)).hasSize(1);

      assertThat(rm.registrations).hasValue(1); // same registration, served by another member
      assertThat(rm.allocateCalls.get(rm.allocateCalls.size() - 1).member()).isEqualTo(2);
      assertThat(rm.handedOut).hasSize(1);
    }
  }

  @Test
  void aLostAllocateResponseIsRecoveredByResendingTheSameResponseId() throws Exception {
    try (TestingRm rm = TestingRm.start(1)) {
      rm.budget.set(0);
      TestProbe<AmEvent> events = testKit.createTestProbe();
      ActorRef<AmClient.Command> client = spawn(rm, rm.addresses(), events);
      events.expectMessageClass(AmEvent.Registered.class, WAIT);
      client.tell(new AmClient.AddContainerRequest(SMALL));
      client.tell(new AmClient.AddContainerRequest(SMALL));
      events.awaitAssert(WAIT, () -> assertThat(outstanding(rm)).isEqualTo(2));

      rm.loseNextAllocateResponses.set(1);
      rm.budget.set(Integer.MAX_VALUE);
      List<Container> got = allocated(events, 2);
      events.expectNoMessage(Duration.ofMillis(200));

      assertThat(got).extracting(Container::id).doesNotHaveDuplicates();
      assertThat(rm.handedOut).hasSize(2);
      List<Integer> ids = rm.allocateCalls.stream().map(c -> c.request().responseId()).toList();
      assertThat(ids).as("some responseId sent twice in a row").satisfies(list -> {
        boolean repeated = false;
        for (int i = 1; i < list.size(); i++) repeated |= list.get(i).equals(list.get(i - 1));
        assertThat(repeated).isTrue();
      });
    }
  }

  @Test
  void aRejectedAskStopsHeartbeatsButStillAllowsUnregistering() throws Exception {
    try (TestingRm rm = TestingRm.start(1)) {
      TestProbe<AmEvent> events = testKit.createTestProbe();
      ActorRef<AmClient.Command> client = spawn(rm, rm.addresses(), events);
      events.expectMessageClass(AmEvent.Registered.class, WAIT);

      client.tell(new AmClient.AddContainerRequest(ContainerRequest.any(Resource.of(1 << 20, 1), 1)));
      AmEvent.Failed failed = events.expectMessageClass(AmEvent.Failed.class, WAIT);
      assertThat(failed.reason()).contains("InvalidResourceRequestException");

      assertThat(unregister(client, FinalApplicationStatus.FAILED, failed.reason()).isSuccess()).isTrue();
      assertThat(rm.lastFinalStatus()).isEqualTo(FinalApplicationStatus.FAILED);
    }
  }

  private ActorRef<AmClient.Command> spawn(TestingRm rm, List<String> addresses, TestProbe<AmEvent> events) {
    return spawn(rm.settings(addresses), events);
  }

  private ActorRef<AmClient.Command> spawn(AmClientSettings settings, TestProbe<AmEvent> events) {
    ActorRef<AmClient.Command> client = testKit.spawn(AmClient.create(settings, events.getRef()));
    clients.add(client);
    return client;
  }

  private StatusReply<Done> unregister(ActorRef<AmClient.Command> client, FinalApplicationStatus status, String diag) {
    TestProbe<StatusReply<Done>> reply = testKit.createTestProbe();
    client.tell(new AmClient.Unregister(status, diag, "", reply.getRef()));
    return reply.receiveMessage(WAIT);
  }

  /** Collects {@code n} allocated containers, skipping other events. */
  private static List<Container> allocated(TestProbe<AmEvent> events, int n) {
    List<Container> got = new ArrayList<>();
    while (got.size() < n) {
      AmEvent e = events.receiveMessage(WAIT);
      if (e instanceof AmEvent.ContainersAllocated a) got.addAll(a.containers());
    }
    assertThat(got).hasSize(n);
    return got;
  }

  /** Waits until the RM has seen {@code n} more allocate calls, so a late over-allocation would show. */
  private static void awaitMoreHeartbeats(TestProbe<?> probe, TestingRm rm, int n) {
    int target = rm.allocateCalls.size() + n;
    probe.awaitAssert(WAIT, () -> assertThat(rm.allocateCalls.size()).isGreaterThanOrEqualTo(target));
  }

  private static int outstanding(TestingRm rm) {
    try {
      return rm.outstandingAny();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
