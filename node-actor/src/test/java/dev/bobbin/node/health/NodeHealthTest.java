package dev.bobbin.node.health;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NodeHealthTest {
  @Test
  void theNodeIsHealthyOnlyWhenEveryCheckIsAndJoinsTheReportsThatSaySomething() {
    NodeHealth script = NodeHealth.unhealthy("ERROR fan failure", 10);
    NodeHealth disks = new NodeHealth(true, "1/2 local-dirs failed: /d1 (gone)", 30);
    NodeHealth quiet = NodeHealth.healthy(20);

    assertThat(NodeHealth.of(script, quiet, disks))
        .isEqualTo(new NodeHealth(false, "ERROR fan failure;1/2 local-dirs failed: /d1 (gone)", 30));
    assertThat(NodeHealth.of(quiet, disks)).isEqualTo(new NodeHealth(true, "1/2 local-dirs failed: /d1 (gone)", 30));
    assertThat(NodeHealth.of(quiet, NodeHealth.healthy(5))).isEqualTo(NodeHealth.healthy(20));
  }
}
