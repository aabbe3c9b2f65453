package dev.bobbin.core.base;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import dev.bobbin.core.app.ApplicationIdStamps;
import dev.bobbin.persistence.testing.TestJournals;
import java.time.Duration;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The rightful owner of an entity whose next sequence number another writer took (a stale member
 * whose write got through) does not stop: its write is refused by the journal's key, it starts
 * again from the journal, now with the other event, and carries on.
 */
class SequenceConflictTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private final Config journal = TestJournals.freshPostgres();
  private ActorTestKit owner;
  private ActorTestKit stale;

  @AfterEach
  void stop() {
    if (stale != null) stale.shutdownTestKit();
    if (owner != null) owner.shutdownTestKit();
  }

  @Test
  void theOwnerRecoversTheOtherWritersEventAndCarriesOn() {
    owner = ActorTestKit.create("owner", journal);
    TestJournals.ensureSchema(owner.system());
    ActorRef<ApplicationIdStamps.Command> stamps = owner.spawn(ApplicationIdStamps.create(ApplicationIdStamps.ENTITY_ID));
    TestProbe<Long> reply = owner.createTestProbe();
    stamps.tell(new ApplicationIdStamps.Take(100, reply.ref()));
    assertThat(reply.receiveMessage(WAIT)).isEqualTo(100);

    // Another incarnation of the same entity writes sequence number 2 behind the owner's back.
    stale = ActorTestKit.create("stale", journal);
    ActorRef<ApplicationIdStamps.Command> other = stale.spawn(ApplicationIdStamps.create(ApplicationIdStamps.ENTITY_ID));
    TestProbe<Long> staleReply = stale.createTestProbe();
    other.tell(new ApplicationIdStamps.Take(500, staleReply.ref()));
    assertThat(staleReply.receiveMessage(WAIT)).isEqualTo(500);

    // The owner's own sequence number 2 is refused; the ask that carried it goes unanswered and its
    // caller asks again, which the restarted owner answers after the other writer's stamp.
    stamps.tell(new ApplicationIdStamps.Take(200, reply.ref()));
    stamps.tell(new ApplicationIdStamps.Take(200, reply.ref()));
    assertThat(reply.receiveMessage(WAIT)).isEqualTo(501);
    stamps.tell(new ApplicationIdStamps.Take(200, reply.ref()));
    assertThat(reply.receiveMessage(WAIT)).isEqualTo(502);
  }
}
