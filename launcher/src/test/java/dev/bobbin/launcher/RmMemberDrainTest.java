package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.junit.jupiter.api.Test;

/** Requests in flight get time to finish when a member leaves, none when the cluster downed it. */
class RmMemberDrainTest {
  @Test
  void aDownedMemberClosesItsConnectionsAtOnce() {
    assertThat(RmMember.drain(Optional.of(CoordinatedShutdown.clusterDowningReason()))).isEqualTo(RmMember.NO_DRAIN);
  }

  @Test
  void aLeavingMemberLetsRequestsInFlightFinish() {
    assertThat(RmMember.drain(Optional.of(CoordinatedShutdown.jvmExitReason()))).isEqualTo(RmMember.HTTP_DRAIN);
    assertThat(RmMember.drain(Optional.of(RmMember.Closed.INSTANCE))).isEqualTo(RmMember.HTTP_DRAIN);
    assertThat(RmMember.drain(Optional.empty())).isEqualTo(RmMember.HTTP_DRAIN);
  }
}
