package dev.bobbin.core.container;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.Resource;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.cluster.sharding.ShardRegion;
import org.apache.pekko.cluster.sharding.typed.GetShardRegionState;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityRef;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Container entities under real cluster sharding: an ended container leaves the heap. */
class ContainerPassivationTest {
  private static final Duration WITHIN = Duration.ofSeconds(10);
  private static final ActorTestKit testKit = ActorTestKit.create(ConfigFactory.parseString("""
          pekko.actor.provider = cluster
          pekko.remote.artery.canonical.hostname = 127.0.0.1
          pekko.remote.artery.canonical.port = 0
          """).withFallback(EventSourcedBehaviorTestKit.config()).withFallback(ConfigFactory.load()));
  private static ClusterSharding sharding;

  @BeforeAll
  static void start() {
    Cluster cluster = Cluster.get(testKit.system());
    cluster.manager().tell(Join.create(cluster.selfMember().address()));
    sharding = ClusterSharding.get(testKit.system());
    sharding.init(Entity.of(ContainerEntity.TYPE_KEY,
        ctx -> ContainerEntity.create(ctx.getEntityId(), Clock.systemUTC(), ctx.getShard())));
  }

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  @Test
  void aCompletedContainerIsStoppedAndStartsAgainWithItsReport() {
    String id = "container_e3_1700000000000_0001_01_000002";
    EntityRef<ContainerEntity.Command> container = sharding.entityRefFor(ContainerEntity.TYPE_KEY, id);
    ack(container, r -> new ContainerEntity.Allocate(allocation(id), r));
    ack(container, ContainerEntity.MarkRunning::new);
    assertThat(liveEntities()).contains(id);

    ack(container, r -> new ContainerEntity.Complete(3, "exit 3", r));
    testKit.createTestProbe().awaitAssert(WITHIN, () -> {
      assertThat(liveEntities()).doesNotContain(id);
      return null;
    });

    ContainerEntity.Report report = ask(container, ContainerEntity.Get::new);
    assertThat(report.phase()).isEqualTo(ContainerEntity.Phase.COMPLETED);
    assertThat(report.exitStatus()).isEqualTo(3);
    assertThat(report.allocation()).isEqualTo(allocation(id));
  }

  @Test
  void aWithdrawnContainerIsStoppedAndStaysWithdrawn() {
    String id = "container_e3_1700000000000_0001_01_000003";
    EntityRef<ContainerEntity.Command> container = sharding.entityRefFor(ContainerEntity.TYPE_KEY, id);
    ack(container, r -> new ContainerEntity.Allocate(allocation(id), r));
    assertThat(liveEntities()).contains(id);

    ack(container, ContainerEntity.Withdraw::new);
    testKit.createTestProbe().awaitAssert(WITHIN, () -> {
      assertThat(liveEntities()).doesNotContain(id);
      return null;
    });

    // A late start report, arriving at the stopped entity, does not bring the container back.
    ack(container, ContainerEntity.MarkRunning::new);
    ContainerEntity.Report report = ask(container, ContainerEntity.Get::new);
    assertThat(report.phase()).isEqualTo(ContainerEntity.Phase.COMPLETED);
    assertThat(report.exitStatus()).isEqualTo(ExitStatus.ABORTED);
    assertThat(report.diagnostics()).isEqualTo(ContainerEntity.WITHDRAWN);
  }

  private static ContainerEntity.Allocation allocation(String id) {
    return new ContainerEntity.Allocation(id, "application_1700000000000_0001",
        "appattempt_1700000000000_0001_000001", "h:1", "h:1", new Resource(1024, 1), 1, -1, false);
  }

  private static void ack(EntityRef<ContainerEntity.Command> container,
      java.util.function.Function<org.apache.pekko.actor.typed.ActorRef<StatusReply<Done>>,
          ContainerEntity.Command> command) {
    assertThat(ask(container, command)).isEqualTo(Done.getInstance());
  }

  private static <T> T ask(EntityRef<ContainerEntity.Command> container,
      java.util.function.Function<org.apache.pekko.actor.typed.ActorRef<StatusReply<T>>,
          ContainerEntity.Command> command) {
    return container.askWithStatus(command::apply, WITHIN).toCompletableFuture().join();
  }

  private static Set<String> liveEntities() {
    TestProbe<ShardRegion.CurrentShardRegionState> probe = testKit.createTestProbe();
    sharding.shardState().tell(new GetShardRegionState(ContainerEntity.TYPE_KEY, probe.ref()));
    return probe.receiveMessage(WITHIN).getShards().stream()
        .flatMap(s -> s.getEntityIds().stream()).collect(Collectors.toSet());
  }
}
