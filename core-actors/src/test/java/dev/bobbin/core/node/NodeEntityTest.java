package dev.bobbin.core.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.EntityTestKits;
import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.Resource;
import java.time.Clock;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class NodeEntityTest {
  private static final ActorTestKit testKit = ActorTestKit.create(EntityTestKits.config());
  private static final NodeEntity.Registration REG =
      new NodeEntity.Registration("h:8042", "h", "h:8042", "/default-rack", new Resource(8192, 8));

  private EventSourcedBehaviorTestKit<NodeEntity.Command, NodeEntity.Event, NodeEntity.State> kit;

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  @BeforeEach
  void setUp() {
    kit = EventSourcedBehaviorTestKit.create(testKit.system(), NodeEntity.create("h:8042", Clock.systemUTC()));
    kit.clear();
  }

  @Test
  void registrationIsDurableAndAnUnchangedReRegistrationWritesNothing() {
    var first = kit.<StatusReply<NodeEntity.Report>>runCommand(r -> new NodeEntity.Register(REG, r));
    assertThat(first.reply().getValue().state()).isEqualTo(NodeState.RUNNING);
    var again = kit.<StatusReply<NodeEntity.Report>>runCommand(r -> new NodeEntity.Register(REG, r));
    assertThat(again.hasNoEvents()).isTrue();
    assertThat(kit.restart().state().registration()).isEqualTo(REG);
  }

  @Test
  void aRegistrationForAnotherNodeIsRefused() {
    var other = new NodeEntity.Registration("x:1", "x", "x:1", "/r", new Resource(1, 1));
    var result = kit.<StatusReply<NodeEntity.Report>>runCommand(r -> new NodeEntity.Register(other, r));
    assertThat(result.reply().isError()).isTrue();
    assertThat(result.hasNoEvents()).isTrue();
  }

  @Test
  void stateChangesAreRecordedWithTheirReason() {
    kit.<StatusReply<NodeEntity.Report>>runCommand(r -> new NodeEntity.Register(REG, r));
    var lost = kit.<StatusReply<NodeEntity.Report>>runCommand(r -> new NodeEntity.MarkState(NodeState.LOST, "expired", r));
    assertThat(lost.reply().getValue().state()).isEqualTo(NodeState.LOST);
    assertThat(lost.reply().getValue().reason()).isEqualTo("expired");
  }

  @Test
  void anUnhealthyNodeStaysUnhealthyThroughItsReRegistrationsUntilMarkedRunning() {
    kit.<StatusReply<NodeEntity.Report>>runCommand(r -> new NodeEntity.Register(REG, r));
    kit.<StatusReply<NodeEntity.Report>>runCommand(r -> new NodeEntity.MarkState(NodeState.UNHEALTHY, "ERROR disk", r));

    var same = kit.<StatusReply<NodeEntity.Report>>runCommand(r -> new NodeEntity.Register(REG, r));
    assertThat(same.hasNoEvents()).isTrue();
    assertThat(same.reply().getValue().state()).isEqualTo(NodeState.UNHEALTHY);
    var bigger = new NodeEntity.Registration("h:8042", "h", "h:8042", "/default-rack", new Resource(16384, 8));
    var changed = kit.<StatusReply<NodeEntity.Report>>runCommand(r -> new NodeEntity.Register(bigger, r));
    assertThat(changed.reply().getValue().state()).isEqualTo(NodeState.UNHEALTHY);
    assertThat(changed.reply().getValue().reason()).isEqualTo("ERROR disk");
    assertThat(kit.restart().state().state()).isEqualTo(NodeState.UNHEALTHY);

    var healthy = kit.<StatusReply<NodeEntity.Report>>runCommand(r -> new NodeEntity.MarkState(NodeState.RUNNING, "healthy again", r));
    assertThat(healthy.reply().getValue().state()).isEqualTo(NodeState.RUNNING);
    assertThat(kit.restart().state().state()).isEqualTo(NodeState.RUNNING);
  }

  @Test
  void aLostNodeThatRegistersAgainRuns() {
    kit.<StatusReply<NodeEntity.Report>>runCommand(r -> new NodeEntity.Register(REG, r));
    kit.<StatusReply<NodeEntity.Report>>runCommand(r -> new NodeEntity.MarkState(NodeState.LOST, "expired", r));
    var back = kit.<StatusReply<NodeEntity.Report>>runCommand(r -> new NodeEntity.Register(REG, r));
    assertThat(back.reply().getValue().state()).isEqualTo(NodeState.RUNNING);
  }

  @Test
  void aGracefulDecommissionKeepsItsTimeoutThroughRestartsAndReRegistrations() {
    kit.<StatusReply<NodeEntity.Report>>runCommand(r -> new NodeEntity.Register(REG, r));
    kit.<StatusReply<NodeEntity.Report>>runCommand(
        r -> new NodeEntity.MarkState(NodeState.DECOMMISSIONING, "graceful", 1_700_000_600_000L, r));

    NodeEntity.State restarted = kit.restart().state();
    assertThat(restarted.state()).isEqualTo(NodeState.DECOMMISSIONING);
    assertThat(restarted.until()).isEqualTo(1_700_000_600_000L);
    var bigger = new NodeEntity.Registration("h:8042", "h", "h:8042", "/default-rack", new Resource(16384, 8));
    kit.<StatusReply<NodeEntity.Report>>runCommand(r -> new NodeEntity.Register(bigger, r));
    assertThat(kit.getState().state()).isEqualTo(NodeState.DECOMMISSIONING);
    assertThat(kit.getState().until()).isEqualTo(1_700_000_600_000L);

    kit.<StatusReply<NodeEntity.Report>>runCommand(r -> new NodeEntity.MarkState(NodeState.RUNNING, "recommissioned", r));
    assertThat(kit.restart().state().until()).isZero();
    assertThat(kit.getState().state()).isEqualTo(NodeState.RUNNING);
  }

  @Test
  void aForgottenNodeLeavesTheJournalAndMayRegisterAfresh() {
    kit.<StatusReply<NodeEntity.Report>>runCommand(r -> new NodeEntity.Register(REG, r));
    kit.<StatusReply<NodeEntity.Report>>runCommand(r -> new NodeEntity.MarkState(NodeState.LOST, "expired", r));

    var forgotten = kit.<StatusReply<NodeEntity.Report>>runCommand(NodeEntity.Forget::new);
    assertThat(forgotten.reply().getValue().registration()).isNull();
    assertThat(kit.restart().state()).isEqualTo(NodeEntity.State.EMPTY);
    assertThat(kit.<StatusReply<NodeEntity.Report>>runCommand(NodeEntity.Forget::new).hasNoEvents()).isTrue();

    var back = kit.<StatusReply<NodeEntity.Report>>runCommand(r -> new NodeEntity.Register(REG, r));
    assertThat(back.reply().getValue().state()).isEqualTo(NodeState.RUNNING);
  }

  @Test
  void aStateChangeJournalledWithoutATimeoutReadsAsNone() throws Exception {
    var cbor = org.apache.pekko.serialization.jackson.JacksonObjectMapperProvider.get(testKit.system())
        .getOrCreate("jackson-cbor", java.util.Optional.empty());
    byte[] older = cbor.writeValueAsBytes(java.util.Map.of("state", "LOST", "reason", "expired"));

    NodeEntity.StateChanged read = cbor.readValue(older, NodeEntity.StateChanged.class);

    assertThat(read).isEqualTo(new NodeEntity.StateChanged(NodeState.LOST, "expired"));
    assertThat(read.until()).isZero();
    assertThat(read.time()).isZero();
  }

  @Test
  void aStateKeepsSinceWhenTheNodeIsInItThroughRestartsAndReRegistrations() {
    long before = System.currentTimeMillis();
    kit.<StatusReply<NodeEntity.Report>>runCommand(r -> new NodeEntity.Register(REG, r));
    long registered = kit.getState().stateTime();
    assertThat(registered).isBetween(before, System.currentTimeMillis());

    long beforeUnhealthy = System.currentTimeMillis();
    kit.<StatusReply<NodeEntity.Report>>runCommand(r -> new NodeEntity.MarkState(NodeState.UNHEALTHY, "ERROR disk", r));
    long unhealthy = kit.restart().state().stateTime();
    assertThat(unhealthy).isBetween(beforeUnhealthy, System.currentTimeMillis());
    var bigger = new NodeEntity.Registration("h:8042", "h", "h:8042", "/default-rack", new Resource(16384, 8));
    kit.<StatusReply<NodeEntity.Report>>runCommand(r -> new NodeEntity.Register(bigger, r));
    assertThat(kit.getState().stateTime()).as("still unhealthy since then").isEqualTo(unhealthy);

    kit.<StatusReply<NodeEntity.Report>>runCommand(r -> new NodeEntity.MarkState(NodeState.SHUTDOWN, "stopped", r));
    NodeEntity.State shutDown = kit.restart().state();
    assertThat(shutDown.state()).isEqualTo(NodeState.SHUTDOWN);
    assertThat(shutDown.reason()).isEqualTo("stopped");
    assertThat(shutDown.stateTime()).isGreaterThanOrEqualTo(unhealthy);
    var back = kit.<StatusReply<NodeEntity.Report>>runCommand(r -> new NodeEntity.Register(REG, r));
    assertThat(back.reply().getValue().state()).as("a shut-down node registers again").isEqualTo(NodeState.RUNNING);
  }

  @Test
  void aStateCheckpointedWithoutItsTimeReadsAsNone() throws Exception {
    var cbor = org.apache.pekko.serialization.jackson.JacksonObjectMapperProvider.get(testKit.system())
        .getOrCreate("jackson-cbor", java.util.Optional.empty());
    byte[] older = cbor.writeValueAsBytes(java.util.Map.of("registration", REG, "state", "DECOMMISSIONED",
        "registeredTime", 5, "reason", "gone", "until", 0));

    NodeEntity.State read = cbor.readValue(older, NodeEntity.State.class);

    assertThat(read).isEqualTo(new NodeEntity.State(REG, NodeState.DECOMMISSIONED, 5, "gone"));
    assertThat(read.stateTime()).isZero();
  }
}
