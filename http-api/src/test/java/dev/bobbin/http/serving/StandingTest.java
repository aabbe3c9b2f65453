package dev.bobbin.http.serving;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.pekko.actor.Address;
import org.apache.pekko.cluster.MemberStatus;
import org.junit.jupiter.api.Test;

/** A member's standing from its view of the cluster, as keep-majority would decide its side. */
class StandingTest {
  private static final Address A = member(2551);
  private static final Address B = member(2552);
  private static final Address C = member(2553);

  private static Address member(int port) {
    return new Address("pekko", "bobbin", "127.0.0.1", port);
  }

  private static Standing.Seen up(Address a) {
    return new Standing.Seen(a, MemberStatus.up(), true);
  }

  private static Standing.Seen unreachable(Address a) {
    return new Standing.Seen(a, MemberStatus.up(), false);
  }

  @Test
  void aMemberThatReachesTheOthersServes() {
    assertThat(Standing.of(A, List.of(up(A), up(B), up(C)))).isEqualTo(Standing.SERVING);
  }

  @Test
  void theMajoritySideOfAPartitionServesWrites() {
    Standing s = Standing.of(A, List.of(up(A), up(B), unreachable(C)));
    assertThat(s.servesWrites()).isTrue();
  }

  @Test
  void aMemberCutOffFromTheMajorityServesReadsOnly() {
    Standing s = Standing.of(C, List.of(unreachable(A), unreachable(B), up(C)));
    assertThat(s.kind()).isEqualTo(Standing.Kind.MINORITY);
    assertThat(s.servesWrites()).isFalse();
    assertThat(s.servesReads()).isTrue();
    assertThat(s.reason()).isEqualTo("this member cannot reach a majority of the cluster (1 of 3 members reachable)");
  }

  @Test
  void aMemberTheOthersCannotReachStopsWritingEvenIfItReachesThem() {
    Standing s = Standing.of(C, List.of(up(A), up(B), unreachable(C)));
    assertThat(s.kind()).isEqualTo(Standing.Kind.MINORITY);
    assertThat(s.reason()).contains("cannot reach this member");
  }

  @Test
  void anEvenSplitIsWonByTheSideWithTheLowestAddress() {
    assertThat(Standing.of(A, List.of(up(A), unreachable(B))).servesWrites()).isTrue();
    assertThat(Standing.of(B, List.of(unreachable(A), up(B))).servesWrites()).isFalse();
  }

  @Test
  void downedAndJoiningMembersDoNotCount() {
    // The survivor of a two-member cluster once the resolver downed the other: alone, it is the majority.
    Standing survivor = Standing.of(B, List.of(new Standing.Seen(A, MemberStatus.down(), false), up(B)));
    assertThat(survivor.servesWrites()).isTrue();
    Standing withJoiner = Standing.of(A, List.of(up(A), unreachable(B), new Standing.Seen(C, MemberStatus.joining(), true)));
    assertThat(withJoiner.servesWrites()).as("1 of 2 counted members, the lowest address").isTrue();
  }

  @Test
  void aMemberNotYetUpServesNothing() {
    for (MemberStatus status : List.of(MemberStatus.joining(), MemberStatus.weaklyUp())) {
      Standing s = Standing.of(C, List.of(up(A), new Standing.Seen(C, status, true)));
      assertThat(s.kind()).isEqualTo(Standing.Kind.NOT_JOINED);
      assertThat(s.servesReads()).isFalse();
      assertThat(s.reason()).isEqualTo("this member has not joined the cluster yet");
    }
    assertThat(Standing.of(C, List.of()).kind()).as("not in any gossip yet").isEqualTo(Standing.Kind.NOT_JOINED);
  }

  @Test
  void aDownedOrRemovedMemberServesNothing() {
    for (MemberStatus status : List.of(MemberStatus.down(), MemberStatus.exiting(), MemberStatus.removed())) {
      Standing s = Standing.of(A, List.of(new Standing.Seen(A, status, true), up(B), up(C)));
      assertThat(s.kind()).as(status.toString()).isEqualTo(Standing.Kind.REMOVED);
      assertThat(s.servesReads()).isFalse();
    }
  }

  @Test
  void aLeavingMemberStillServesWhileItHandsOver() {
    Standing s = Standing.of(A, List.of(new Standing.Seen(A, MemberStatus.leaving(), true), up(B), up(C)));
    assertThat(s).isEqualTo(Standing.SERVING);
  }
}
