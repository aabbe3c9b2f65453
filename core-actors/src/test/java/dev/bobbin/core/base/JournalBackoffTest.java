package dev.bobbin.core.base;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.EntityTestKits;
import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.Resource;
import java.time.Clock;
import java.time.Duration;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.PersistenceTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** An entity the journal fails starts again from the journal, instead of stopping. */
class JournalBackoffTest {
  private static final ActorTestKit testKit = ActorTestKit.create(EntityTestKits.config());
  private static final PersistenceTestKit journal = PersistenceTestKit.create(testKit.system());
  private static final NodeEntity.Registration REG =
      new NodeEntity.Registration("h:8042", "h", "h:8042", "/default-rack", new Resource(8192, 8));

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  @BeforeEach
  void clear() {
    journal.clearAll();
    journal.resetPolicy();
  }

  @Test
  void aRecoveryTheJournalFailsIsRetriedAndTheWaitingRequestAnswered() {
    journal.failNextNReads(2);
    ActorRef<NodeEntity.Command> node = testKit.spawn(NodeEntity.create("h:8042", Clock.systemUTC()));
    TestProbe<StatusReply<NodeEntity.Report>> probe = testKit.createTestProbe();
    node.tell(new NodeEntity.Register(REG, probe.ref()));
    // Two failed recoveries back off 200 ms then 400 ms (+20 %); the registration waits meanwhile.
    assertThat(probe.receiveMessage(Duration.ofSeconds(5)).getValue().state()).isEqualTo(NodeState.RUNNING);
  }

  @Test
  void aFailedWriteRestartsTheEntityFromTheJournal() {
    ActorRef<NodeEntity.Command> node = testKit.spawn(NodeEntity.create("h:8042", Clock.systemUTC()));
    TestProbe<StatusReply<NodeEntity.Report>> probe = testKit.createTestProbe();
    journal.failNextPersisted();
    node.tell(new NodeEntity.Register(REG, probe.ref()));
    // The failed registration was not written and had no answer (its caller asks again): the
    // restarted entity takes the repeat as new and answers it.
    node.tell(new NodeEntity.Register(REG, probe.ref()));
    assertThat(probe.receiveMessage(Duration.ofSeconds(5)).getValue().state()).isEqualTo(NodeState.RUNNING);
    assertThat(journal.persistedInStorage("Node|h:8042")).hasSize(1);
  }
}
