package dev.bobbin.http.serving;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.cluster.Cluster;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;

/**
 * This member's {@link Standing}, read from the cluster's own view of membership and reachability
 * on each call: a volatile read that the cluster keeps current from its events, cheap enough for
 * every request.
 */
public final class ClusterStanding implements Supplier<Standing> {
  private final Cluster cluster;
  /** Whether this member has been in the gossip: before it has, Pekko reports its own status as Removed. */
  private volatile boolean joined;

  public ClusterStanding(ActorSystem<?> system) {
    this.cluster = Cluster.get(Adapter.toClassic(system));
  }

  @Override
  public Standing get() {
    if (cluster.isTerminated()) {
      return Standing.of(cluster.selfAddress(), List.of(new Standing.Seen(cluster.selfAddress(), MemberStatus.removed(), false)));
    }
    ClusterEvent.CurrentClusterState state = cluster.state();
    Set<Member> unreachable = state.getUnreachable();
    List<Standing.Seen> seen = new ArrayList<>();
    boolean selfSeen = false;
    for (Member m : state.getMembers()) {
      selfSeen |= m.address().equals(cluster.selfAddress());
      seen.add(new Standing.Seen(m.address(), m.status(), !unreachable.contains(m)));
    }
    // Not in the gossip yet (still joining), or no longer (removed).
    if (selfSeen) joined = true;
    else seen.add(new Standing.Seen(cluster.selfAddress(), joined ? cluster.selfMember().status() : MemberStatus.joining(),
        true));
    return Standing.of(cluster.selfAddress(), seen);
  }
}
