package dev.bobbin.persistence;

import dev.bobbin.persistence.testing.TestJournals;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.pattern.StatusReply;

/**
 * Run in a child JVM by {@link EmbeddedKillTest}: writes {@code n} items to an embedded journal,
 * printing {@code ACK i} once each write is acknowledged, then {@code DONE}, then waits to be killed.
 */
public final class LedgerWriterMain {
  public static void main(String[] args) {
    Path dataDir = Path.of(args[0]);
    int n = Integer.parseInt(args[1]);
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "writer", TestJournals.embedded(dataDir));
    TestJournals.ensureSchema(system);
    ActorRef<Ledger.Command> ledger = system.systemActorOf(
        Ledger.create(EmbeddedKillTest.ID, "killed", system.ignoreRef()), "ledger", Props.empty());
    for (int i = 1; i <= n; i++) {
      String item = Integer.toString(i);
      StatusReply<Ledger.Summary> reply = AskPattern.<Ledger.Command, StatusReply<Ledger.Summary>>ask(
              ledger, replyTo -> new Ledger.Add(item, replyTo), Duration.ofSeconds(20), system.scheduler())
          .toCompletableFuture().join();
      if (reply.isError()) throw new IllegalStateException(reply.getError());
      System.out.println("ACK " + i);
    }
    System.out.println("DONE");
    System.out.flush();
    system.getWhenTerminated().toCompletableFuture().join();
  }
}
