package dev.bobbin.http.serving;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.pekko.actor.Address;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;

/**
 * Whether an RM member may serve, from its own view of the cluster. It serves writes only while it
 * is on the side the split-brain resolver's keep-majority would keep: its side holds more than half
 * of the members that are up (or leaving), or exactly half including the member with the lowest
 * address. A member cut off from the majority so stops writing once its failure detector marks the
 * others unreachable, seconds before the resolver downs it.
 *
 * @param reason what a refused caller is told; empty while the member serves
 */
public record Standing(Kind kind, String reason) {
  public enum Kind {
    /** Up, and on the majority's side: serves everything. */
    SERVING,
    /** Started, not yet up in the cluster: serves nothing but its readiness. */
    NOT_JOINED,
    /** Up, but cut off from the majority (or unreachable to it): serves reads, refuses writes. */
    MINORITY,
    /** Downed, or past leaving: serves nothing but its readiness until it stops. */
    REMOVED
  }

  /** A member as this one sees it: its status in the gossip, and whether any member marked it unreachable. */
  public record Seen(Address address, MemberStatus status, boolean reachable) {}

  public static final Standing SERVING = new Standing(Kind.SERVING, "");

  public boolean servesWrites() {
    return kind == Kind.SERVING;
  }

  public boolean servesReads() {
    return kind == Kind.SERVING || kind == Kind.MINORITY;
  }

  /** @param members every member in this member's view, itself included once it has joined */
  public static Standing of(Address self, List<Seen> members) {
    Optional<Seen> me = members.stream().filter(m -> m.address().equals(self)).findFirst();
    MemberStatus status = me.map(Seen::status).orElse(MemberStatus.joining());
    if (status.equals(MemberStatus.joining()) || status.equals(MemberStatus.weaklyUp())) {
      return new Standing(Kind.NOT_JOINED, "this member has not joined the cluster yet");
    }
    if (!isVoter(status)) {
      return new Standing(Kind.REMOVED, "this member is leaving the cluster (" + status + ")");
    }
    if (!me.get().reachable()) {
      return new Standing(Kind.MINORITY, "the other members of the cluster cannot reach this member");
    }
    List<Seen> voters = members.stream().filter(m -> isVoter(m.status())).toList();
    long reachable = voters.stream().filter(Seen::reachable).count();
    boolean lowestReachable = voters.stream().min(Comparator.comparing(Seen::address, Member.addressOrdering()))
        .map(Seen::reachable).orElse(false);
    if (reachable * 2 > voters.size() || reachable * 2 == voters.size() && lowestReachable) return SERVING;
    return new Standing(Kind.MINORITY, "this member cannot reach a majority of the cluster (" + reachable + " of "
        + voters.size() + " members reachable)");
  }

  /** The members keep-majority counts. */
  private static boolean isVoter(MemberStatus s) {
    return s.equals(MemberStatus.up()) || s.equals(MemberStatus.leaving());
  }
}
