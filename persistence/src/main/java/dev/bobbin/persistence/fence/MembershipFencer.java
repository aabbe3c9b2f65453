package dev.bobbin.persistence.fence;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.UniqueAddress;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Subscribe;

/**
 * Fences in the journal every member incarnation the cluster downs or removes (a removed
 * incarnation never comes back), retrying while the database is away; and stops this member's
 * own writes the moment it learns it was downed. Also fences earlier incarnations of this member's
 * own address when it starts, which cannot be running since this one holds the address.
 */
final class MembershipFencer {
  private static final Duration FIRST_RETRY = Duration.ofMillis(500);
  private static final Duration MAX_RETRY = Duration.ofSeconds(5);

  /** Fence {@code member}; {@code retry} is the wait before the next attempt if this one fails. */
  record Fence(String member, Duration retry) {}

  private record Fenced(String member, boolean done, Duration retry) {}

  private record Earlier(Set<String> owners) {}

  private MembershipFencer() {}

  static Behavior<Object> create(WriteFence fence, UniqueAddress self) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      Cluster cluster = Cluster.get(ctx.getSystem());
      cluster.subscriptions().tell(Subscribe.create(ctx.getSelf().narrow(), ClusterEvent.MemberDowned.class));
      cluster.subscriptions().tell(Subscribe.create(ctx.getSelf().narrow(), ClusterEvent.MemberRemoved.class));
      ctx.pipeToSelf(CompletableFuture.supplyAsync(() -> {
        try {
          return fence.earlierIncarnations();
        } catch (java.sql.SQLException e) {
          throw new IllegalStateException(e.getMessage(), e);
        }
      }, fence.blocking()), (owners, error) -> new Earlier(error == null ? owners : Set.of()));
      return running(ctx, timers, fence, self, new HashSet<>());
    }));
  }

  private static Behavior<Object> running(ActorContext<Object> ctx, TimerScheduler<Object> timers, WriteFence fence,
      UniqueAddress self, Set<String> done) {
    return Behaviors.receive(Object.class)
        .onMessage(ClusterEvent.MemberDowned.class, e -> {
          onGone(ctx, fence, self, e.member().uniqueAddress(), "this member was downed by the cluster");
          return Behaviors.same();
        })
        .onMessage(ClusterEvent.MemberRemoved.class, e -> {
          // Only a downed member is fenced: one that left gracefully handed its shards and
          // singletons over, releasing their leases.
          if (e.previousStatus() == MemberStatus.down() || e.member().uniqueAddress().equals(self)) {
            onGone(ctx, fence, self, e.member().uniqueAddress(), "this member was removed from the cluster");
          }
          return Behaviors.same();
        })
        .onMessage(Earlier.class, e -> {
          e.owners().forEach(o -> ctx.getSelf().tell(new Fence(o, FIRST_RETRY)));
          return Behaviors.same();
        })
        .onMessage(Fence.class, f -> {
          if (done.contains(f.member())) return Behaviors.same();
          ctx.pipeToSelf(CompletableFuture.supplyAsync(() -> fence.fence(f.member()), fence.blocking()),
              (ok, error) -> new Fenced(f.member(), ok != null && ok, f.retry()));
          return Behaviors.same();
        })
        .onMessage(Fenced.class, f -> {
          if (f.done()) {
            done.add(f.member());
          } else {
            Duration next = f.retry().multipliedBy(2).compareTo(MAX_RETRY) > 0 ? MAX_RETRY : f.retry().multipliedBy(2);
            timers.startSingleTimer(f.member(), new Fence(f.member(), next), f.retry());
          }
          return Behaviors.same();
        })
        .build();
  }

  private static void onGone(ActorContext<Object> ctx, WriteFence fence, UniqueAddress self, UniqueAddress member,
      String selfReason) {
    if (member.equals(self)) {
      fence.close(selfReason);
      return;
    }
    // A member on its way out (it is leaving, or downed itself on the losing side of a partition)
    // sees the others removed from its own view as it shuts down; only a serving member fences.
    MemberStatus status = Cluster.get(ctx.getSystem()).selfMember().status();
    if (status == MemberStatus.up() || status == MemberStatus.weaklyUp()) {
      ctx.getSelf().tell(new Fence(WriteFence.ownerOf(member), FIRST_RETRY));
    }
  }
}
