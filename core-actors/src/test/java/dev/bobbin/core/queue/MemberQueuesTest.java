package dev.bobbin.core.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.config.SchedulerPolicy;
import dev.bobbin.config.SchedulerSettings;
import dev.bobbin.config.fair.Placement;
import dev.bobbin.core.policy.PolicyConfig;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.pubsub.Topic;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class MemberQueuesTest {
  private static final ActorTestKit testKit = ActorTestKit.create();

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  private static PolicyConfig fifo(String... queues) {
    return new PolicyConfig(new SchedulerSettings(SchedulerPolicy.FIFO, List.of(queues), 1024, 1, 8192, 4,
        Duration.ofMillis(100), 2000, 0.5), null);
  }

  @Test
  void aRefreshAnnouncedInTheClusterHasTheMemberReadItsConfigurationAgain() {
    MemberQueues queues = new MemberQueues(fifo("default"));
    String before = queues.version();
    assertThat(queues.place("batch", "alice", List.of("alice"))).isInstanceOf(Placement.Rejected.class);
    AtomicInteger reads = new AtomicInteger();
    var topic = testKit.spawn(Topic.create(MemberQueues.Refreshed.class, MemberQueues.TOPIC));
    testKit.spawn(MemberQueues.listener(queues, () -> {
      reads.incrementAndGet();
      return fifo("default", "batch");
    }, topic));

    testKit.createTestProbe().awaitAssert(Duration.ofSeconds(5), () -> {
      topic.tell(Topic.publish(new MemberQueues.Refreshed()));
      assertThat(queues.place("batch", "alice", List.of("alice"))).isEqualTo(new Placement.Placed("root.batch", List.of(), "fifo"));
      return null;
    });
    assertThat(queues.version()).isNotEqualTo(before);
    assertThat(reads.get()).isPositive();
  }

  @Test
  void aConfigurationThatCannotBeReadLeavesTheMemberPlacingWithTheOneItHas() {
    MemberQueues queues = new MemberQueues(fifo("default"));
    String before = queues.version();
    AtomicInteger reads = new AtomicInteger();
    var topic = testKit.spawn(Topic.create(MemberQueues.Refreshed.class, MemberQueues.TOPIC + "-broken"));
    testKit.spawn(MemberQueues.listener(queues, () -> {
      reads.incrementAndGet();
      throw new IllegalStateException("bobbin.scheduler.queues: must name at least one queue");
    }, topic));
    testKit.createTestProbe().awaitAssert(Duration.ofSeconds(5), () -> {
      topic.tell(Topic.publish(new MemberQueues.Refreshed()));
      assertThat(reads.get()).isPositive();
      return null;
    });
    assertThat(queues.version()).isEqualTo(before);
    assertThat(queues.place("default", "alice", List.of("alice"))).isInstanceOf(Placement.Placed.class);
  }
}
