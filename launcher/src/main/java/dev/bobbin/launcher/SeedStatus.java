package dev.bobbin.launcher;

import dev.bobbin.launcher.FirstSeedGuard.Probe;
import dev.bobbin.protocol.CborSerializable;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;

/**
 * Every member answers whether it is a cluster member, for a first seed node that is deciding
 * whether it may form a cluster by itself ({@link FirstSeedGuard}). It runs before the member
 * joins (it answers "no" then), at a fixed path under /system.
 */
public final class SeedStatus {
  static final String NAME = "bobbin-seed-status";
  /** How long a probe waits for the answer once the connection was accepted. */
  static final Duration ANSWER = Duration.ofSeconds(2);

  public record IsMember(ActorRef<Answer> replyTo) implements CborSerializable {}

  public record Answer(boolean member) implements CborSerializable {}

  private SeedStatus() {}

  static Behavior<IsMember> behavior(Cluster cluster) {
    return Behaviors.receiveMessage(q -> {
      q.replyTo().tell(new Answer(isMember(cluster.selfMember().status())));
      return Behaviors.same();
    });
  }

  /** As Pekko answers a joining node: a member that is down or exiting is no longer one to join. */
  static boolean isMember(MemberStatus status) {
    return !status.equals(MemberStatus.removed()) && !status.equals(MemberStatus.down())
        && !status.equals(MemberStatus.exiting());
  }

  /** Connects to the seed's cluster port, then asks the member there whether it is a cluster member. */
  static Probe probe(ActorSystem<?> system, InetSocketAddress seed) {
    Probe noConnection = FirstSeedGuard.connect(new InetSocketAddress(seed.getHostString(), seed.getPort()));
    if (noConnection != null) return noConnection;
    ActorRef<IsMember> there = ActorRefResolver.get(system)
        .resolveActorRef("pekko://" + system.name() + "@" + seed.getHostString() + ":" + seed.getPort() + "/system/" + NAME);
    try {
      Answer answer = AskPattern.<IsMember, Answer>ask(there, IsMember::new, ANSWER, system.scheduler())
          .toCompletableFuture().get(ANSWER.toMillis() + 500, TimeUnit.MILLISECONDS);
      return answer.member() ? Probe.MEMBER : Probe.NOT_A_MEMBER;
    } catch (ExecutionException | TimeoutException e) {
      return Probe.SILENT;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Probe.SILENT;
    }
  }
}
