package dev.bobbin.core.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.policy.AdmissionTerms;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.pattern.StatusReply;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class QueueAdmissionsTest {
  private static final ActorTestKit testKit = ActorTestKit.create();
  private static final StatusReply<QueueEntity.Admitted> ALL = StatusReply.success(QueueEntity.Admitted.ALL);
  private TestProbe<QueueEntity.Command> alpha;
  private TestProbe<QueueEntity.Command> beta;
  private ActorRef<QueueAdmissions.Command> admissions;

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  @BeforeEach
  void setUp() {
    alpha = testKit.createTestProbe();
    beta = testKit.createTestProbe();
    var queues = Map.of("alpha", alpha.ref(), "beta", beta.ref());
    admissions = testKit.spawn(QueueAdmissions.create(queues::get, Duration.ofMillis(500)));
  }

  private TestProbe<StatusReply<Done>> admit(String queue, String appId, String version) {
    TestProbe<StatusReply<Done>> client = testKit.createTestProbe();
    admissions.tell(new QueueAdmissions.Admit(queue, appId, version, AdmissionTerms.OPEN, client.ref()));
    return client;
  }

  @Test
  void admissionsArrivingDuringAWriteGoTogetherInTheNext() {
    var first = admit("alpha", "application_1_0001", "v1");
    var firstWrite = alpha.expectMessageClass(QueueEntity.AddApps.class);
    assertThat(firstWrite.appIds()).containsExactly("application_1_0001");

    var second = admit("alpha", "application_1_0002", "v1");
    var third = admit("alpha", "application_1_0003", "v2");
    alpha.expectNoMessage(Duration.ofMillis(100));
    second.expectNoMessage(Duration.ZERO);

    firstWrite.replyTo().tell(ALL);
    assertThat(first.receiveMessage().isSuccess()).isTrue();
    var secondWrite = alpha.expectMessageClass(QueueEntity.AddApps.class);
    assertThat(secondWrite.appIds()).containsExactly("application_1_0002", "application_1_0003");
    assertThat(secondWrite.configVersion()).isEqualTo("v2");
    second.expectNoMessage(Duration.ZERO);

    secondWrite.replyTo().tell(ALL);
    assertThat(second.receiveMessage().isSuccess()).isTrue();
    assertThat(third.receiveMessage().isSuccess()).isTrue();
  }

  @Test
  void eachQueueHasItsOwnWriteInFlight() {
    var a = admit("alpha", "application_1_0001", "v1");
    var b = admit("beta", "application_1_0002", "v1");
    var toAlpha = alpha.expectMessageClass(QueueEntity.AddApps.class);
    var toBeta = beta.expectMessageClass(QueueEntity.AddApps.class);
    toBeta.replyTo().tell(ALL);
    assertThat(b.receiveMessage().isSuccess()).isTrue();
    a.expectNoMessage(Duration.ofMillis(50));
    toAlpha.replyTo().tell(ALL);
    assertThat(a.receiveMessage().isSuccess()).isTrue();
  }

  @Test
  void aRefusalReachesEveryAdmissionOfItsWriteAndTheNextWriteGoesAhead() {
    var first = admit("alpha", "application_1_0001", "v1");
    var firstWrite = alpha.expectMessageClass(QueueEntity.AddApps.class);
    var second = admit("alpha", "application_1_0002", "v1");
    var third = admit("alpha", "application_1_0003", "v1");
    firstWrite.replyTo().tell(ALL);
    first.receiveMessage();

    var refused = alpha.expectMessageClass(QueueEntity.AddApps.class);
    var fourth = admit("alpha", "application_1_0004", "v1");
    refused.replyTo().tell(StatusReply.error("Queue alpha is STOPPED"));
    for (var client : List.of(second, third)) {
      StatusReply<Done> r = client.receiveMessage();
      assertThat(r.isError()).isTrue();
      assertThat(r.getError().getMessage()).isEqualTo("Queue alpha is STOPPED");
    }
    var next = alpha.expectMessageClass(QueueEntity.AddApps.class);
    assertThat(next.appIds()).containsExactly("application_1_0004");
    next.replyTo().tell(ALL);
    assertThat(fourth.receiveMessage().isSuccess()).isTrue();
  }

  @Test
  void aQueueThatDoesNotAnswerGivesATimeoutThatTheHttpLayerTurnsInto503() {
    var client = admit("alpha", "application_1_0001", "v1");
    alpha.expectMessageClass(QueueEntity.AddApps.class);
    StatusReply<Done> r = client.receiveMessage(Duration.ofSeconds(3));
    assertThat(r.isError()).isTrue();
    assertThat(r.getError()).isInstanceOf(TimeoutException.class);
  }

  @Test
  void oneWriteTakesAtMostTheBatchLimit() {
    var first = admit("alpha", "application_1_0000", "v1");
    var firstWrite = alpha.expectMessageClass(QueueEntity.AddApps.class);
    for (int i = 1; i <= QueueAdmissions.MAX_BATCH + 1; i++) admit("alpha", "application_1_" + (1000 + i), "v1");
    firstWrite.replyTo().tell(ALL);
    first.receiveMessage();
    var full = alpha.expectMessageClass(QueueEntity.AddApps.class);
    assertThat(full.appIds()).hasSize(QueueAdmissions.MAX_BATCH);
    full.replyTo().tell(ALL);
    assertThat(alpha.expectMessageClass(QueueEntity.AddApps.class).appIds())
        .containsExactly("application_1_" + (1000 + QueueAdmissions.MAX_BATCH + 1));
  }

  @Test
  void anApplicationTheQueueHasNoRoomForIsRefusedAloneWithTheQueuesReason() {
    var first = admit("alpha", "application_1_0001", "v1");
    var firstWrite = alpha.expectMessageClass(QueueEntity.AddApps.class);
    var second = admit("alpha", "application_1_0002", "v1");
    var third = admit("alpha", "application_1_0003", "v1");
    firstWrite.replyTo().tell(ALL);
    first.receiveMessage();
    var both = alpha.expectMessageClass(QueueEntity.AddApps.class);
    assertThat(both.appIds()).containsExactly("application_1_0002", "application_1_0003");
    both.replyTo().tell(StatusReply.success(new QueueEntity.Admitted(Map.of("application_1_0003", "full"))));
    assertThat(second.receiveMessage().isSuccess()).isTrue();
    StatusReply<Done> refused = third.receiveMessage();
    assertThat(refused.isError()).isTrue();
    assertThat(refused.getError().getMessage()).isEqualTo("full");
  }
}
