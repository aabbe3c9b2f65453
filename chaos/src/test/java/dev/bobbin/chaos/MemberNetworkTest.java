package dev.bobbin.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Namespaces, bridge and faults on this host; needs root on Linux, and is skipped otherwise. */
class MemberNetworkTest {
  @BeforeEach
  void onlyAsRootOnLinux() {
    assumeTrue(MemberNetwork.unsupported().isEmpty(), () -> "member namespaces: " + MemberNetwork.unsupported().get());
  }

  @Test
  void whatAnEndedRunLeftBehindIsRemovedAndNothingElse() throws Exception {
    Process ended = new ProcessBuilder("true").start();
    ended.waitFor();
    String ns = MemberNetwork.NAMESPACE_PREFIX + ended.pid() + "-rm1";
    String link = MemberNetwork.LINK_PREFIX + ended.pid() + "br";
    String ours = MemberNetwork.NAMESPACE_PREFIX + ProcessHandle.current().pid() + "-rm9";
    try {
      Commands.must("ip", "netns", "add", ns);
      Commands.must("ip", "netns", "add", ours);
      Commands.must("ip", "link", "add", link, "type", "bridge");
      assertThat(MemberNetwork.removeStale()).contains(ns, link).doesNotContain(ours);
      assertThat(Commands.run("ip", "netns", "list").output()).doesNotContain(ns).contains(ours);
      assertThat(Commands.run("ip", "link", "show", link).ok()).isFalse();
    } finally {
      Commands.run("ip", "netns", "delete", ns);
      Commands.run("ip", "netns", "delete", ours);
      Commands.run("ip", "link", "delete", link);
    }
  }

  @Test
  void aPartitionCutsOnlyTheMembersOffEachOtherAndHeals() throws Exception {
    String prefix = MemberNetwork.NAMESPACE_PREFIX + ProcessHandle.current().pid() + "-";
    try (MemberNetwork net = MemberNetwork.create(3)) {
      assertThat(Commands.run("ip", "netns", "list").output()).contains(prefix + "rm1", prefix + "rm3");
      assertThat(neighbour(net, 1, 2)).doesNotContain("PERMANENT");
      MemberNetwork.Heal heal = net.inject(FaultKind.PARTITION, 1);
      assertThat(neighbour(net, 1, 2)).contains("PERMANENT");
      assertThat(neighbour(net, 3, 1)).contains("PERMANENT");
      assertThat(neighbour(net, 2, 3)).doesNotContain("PERMANENT");
      heal.heal();
      assertThat(neighbour(net, 1, 2)).doesNotContain("PERMANENT");
      assertThat(neighbour(net, 3, 1)).doesNotContain("PERMANENT");
      Map<FaultKind, String> unavailable = net.unavailable();
      if (!unavailable.containsKey(FaultKind.SLOW)) net.inject(FaultKind.SLOW, 2).heal();
      if (!unavailable.containsKey(FaultKind.LOSS)) net.inject(FaultKind.LOSS, 2).heal();
      net.inject(FaultKind.ISOLATE, 3).heal();
    }
    assertThat(Commands.run("ip", "netns", "list").output()).doesNotContain(prefix);
  }

  private static String neighbour(MemberNetwork net, int from, int to) {
    return Commands.run(net.wrap(from, java.util.List.of("ip", "neigh", "show", net.address(to)))).output();
  }
}
