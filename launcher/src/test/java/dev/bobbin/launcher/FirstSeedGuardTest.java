package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.launcher.FirstSeedGuard.Probe;
import dev.bobbin.launcher.FirstSeedGuard.Step;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.pekko.cluster.MemberStatus;
import org.junit.jupiter.api.Test;

class FirstSeedGuardTest {
  private static final long S = 1_000_000_000L;
  private static final InetSocketAddress B = InetSocketAddress.createUnresolved("10.0.0.2", 2552);
  private static final InetSocketAddress C = InetSocketAddress.createUnresolved("10.0.0.3", 2553);
  private final Map<InetSocketAddress, Probe> found = new HashMap<>();
  private final FirstSeedGuard guard = new FirstSeedGuard(List.of(B, C), Duration.ofSeconds(15),
      seed -> found.getOrDefault(seed, Probe.CLOSED), 100 * S);

  @Test
  void formsOnceNoOtherSeedHeldItBackForTheWholeWindowCountedFromTheStart() {
    found.put(B, Probe.NOT_A_MEMBER);
    assertThat(guard.step(100 * S)).isEqualTo(Step.WAIT);
    assertThat(guard.step(114 * S)).isEqualTo(Step.WAIT);
    assertThat(guard.step(115 * S)).isEqualTo(Step.FORM);
  }

  @Test
  void waitsForAsLongAsASeedIsSilentOrAMemberAndSaysSoOncePerWindow() {
    found.put(B, Probe.NOT_A_MEMBER);
    found.put(C, Probe.SILENT);
    assertThat(guard.step(101 * S)).isEqualTo(Step.WAIT);
    assertThat(guard.step(115 * S)).isEqualTo(Step.WAIT_AND_LOG);
    assertThat(guard.holdingBack()).isEqualTo("10.0.0.3:2553 (accepts connections but does not answer)");
    assertThat(guard.step(116 * S)).isEqualTo(Step.WAIT);
    found.put(C, Probe.MEMBER);
    assertThat(guard.step(130 * S)).isEqualTo(Step.WAIT_AND_LOG);
    assertThat(guard.holdingBack()).isEqualTo("10.0.0.3:2553 (a member)");
    assertThat(guard.step(3600 * S)).isEqualTo(Step.WAIT_AND_LOG);
  }

  @Test
  void theWindowRestartsAtTheLastRoundThatHeldItBack() {
    found.put(B, Probe.SILENT);
    guard.step(110 * S);
    found.clear();
    assertThat(guard.step(124 * S)).isEqualTo(Step.WAIT);
    assertThat(guard.holdingBack()).isEmpty();
    assertThat(guard.step(125 * S)).isEqualTo(Step.FORM);
    assertThat(guard.otherSeeds()).isEqualTo("10.0.0.2:2552, 10.0.0.3:2553");
  }

  @Test
  void aFirstSeedNeedsOtherSeedsToWaitFor() {
    assertThatThrownBy(() -> new FirstSeedGuard(List.of(), Duration.ofSeconds(15), a -> Probe.CLOSED, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void anUnreachableSeedHoldsItBackUnlessAMajorityOfSeedsIsKnownOutOfAnyCluster() {
    found.put(B, Probe.UNREACHABLE);
    found.put(C, Probe.UNREACHABLE);
    assertThat(guard.step(115 * S)).as("cut off from both others: they may be a majority running a cluster")
        .isEqualTo(Step.WAIT_AND_LOG);
    assertThat(guard.holdingBack()).isEqualTo("10.0.0.2:2552 (cannot be reached), 10.0.0.3:2553 (cannot be reached)");
    found.put(C, Probe.NOT_A_MEMBER);
    assertThat(guard.step(116 * S)).isEqualTo(Step.WAIT);
    assertThat(guard.holdingBack()).isEmpty();
    found.put(C, Probe.CLOSED);
    assertThat(guard.step(131 * S)).as("this one and C make two of three seeds out of any cluster")
        .isEqualTo(Step.FORM);
  }

  @Test
  void withTwoSeedsAnUnreachableOtherHoldsTheFirstBackForAsLongAsItLasts() {
    FirstSeedGuard two = new FirstSeedGuard(List.of(B), Duration.ofSeconds(15), seed -> Probe.UNREACHABLE, 100 * S);
    assertThat(two.step(115 * S)).isEqualTo(Step.WAIT_AND_LOG);
    assertThat(two.step(3600 * S)).isEqualTo(Step.WAIT_AND_LOG);
    assertThat(two.holdingBack()).isEqualTo("10.0.0.2:2552 (cannot be reached)");
  }

  @Test
  void aConnectionIsAcceptedRefusedOrUnanswered() throws IOException {
    InetSocketAddress address;
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      address = new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());
      assertThat(FirstSeedGuard.connect(address)).isNull();
      try (Socket filling = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
        assertThat(filling.isConnected()).as("a backlog of 1 holds two connections").isTrue();
        // A backlog that is full drops further connection attempts unanswered, as a host beyond a split does.
        assertThat(FirstSeedGuard.connect(address)).isEqualTo(Probe.UNREACHABLE);
      }
    }
    assertThat(FirstSeedGuard.connect(address)).isEqualTo(Probe.CLOSED);
  }

  @Test
  void aMemberThatIsDownOrExitingIsNoLongerOneToJoin() {
    assertThat(SeedStatus.isMember(MemberStatus.up())).isTrue();
    assertThat(SeedStatus.isMember(MemberStatus.joining())).isTrue();
    assertThat(SeedStatus.isMember(MemberStatus.leaving())).isTrue();
    assertThat(SeedStatus.isMember(MemberStatus.removed())).isFalse();
    assertThat(SeedStatus.isMember(MemberStatus.down())).isFalse();
    assertThat(SeedStatus.isMember(MemberStatus.exiting())).isFalse();
  }
}
