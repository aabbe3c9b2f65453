package dev.bobbin.core.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.policy.LocalityDelay.Wait;
import org.junit.jupiter.api.Test;

/** The delay rules of Hadoop's Fair and Capacity schedulers, with their numbers. */
class LocalityDelayTest {
  /** Offers {@code n} opportunities under the Fair rule; returns the level the last one allowed, and the state. */
  private static LocalityDelay.Allowed offer(Wait from, int n, int nodes, double node, double rack) {
    LocalityDelay.Allowed a = new LocalityDelay.Allowed(null, from);
    for (int i = 0; i < n; i++) a = LocalityDelay.fair(a.next().offered(), nodes, node, rack);
    return a;
  }

  @Test
  void fairPassesUpMoreThanItsShareOfTheNodesBeforeEachStep() {
    // 10 nodes, node threshold 0.5: the first opportunity sets node-local; it relaxes to rack-local
    // once more than 5 have been counted, at the 6th, and the count starts again. With the rack
    // threshold 0.2 it goes off-switch once more than 2 more have passed, at the 3rd.
    assertThat(offer(Wait.NONE, 1, 10, 0.5, 0.2).level()).isEqualTo(Locality.NODE_LOCAL);
    assertThat(offer(Wait.NONE, 5, 10, 0.5, 0.2).level()).isEqualTo(Locality.NODE_LOCAL);
    LocalityDelay.Allowed sixth = offer(Wait.NONE, 6, 10, 0.5, 0.2);
    assertThat(sixth.level()).isEqualTo(Locality.RACK_LOCAL);
    assertThat(sixth.next()).isEqualTo(new Wait(Locality.RACK_LOCAL, 0));
    assertThat(offer(sixth.next(), 2, 10, 0.5, 0.2).level()).isEqualTo(Locality.RACK_LOCAL);
    assertThat(offer(sixth.next(), 3, 10, 0.5, 0.2).level()).isEqualTo(Locality.OFF_SWITCH);
  }

  @Test
  void fairReadsThresholdsInSinglePrecisionAsHadoopDoes() {
    // 0.7f is 0.699999988: 10 nodes times it is just under 7, so the 7th opportunity relaxes.
    // In double precision 0.7 x 10 is just over 7 and it would take an 8th.
    assertThat(offer(Wait.NONE, 7, 10, 0.7, 0.7).level()).isEqualTo(Locality.RACK_LOCAL);
  }

  @Test
  void aThresholdAboveOneCountsAsOneAndANegativeOneTurnsDelayOff() {
    assertThat(offer(Wait.NONE, 4, 4, 3.0, 3.0).level()).isEqualTo(Locality.NODE_LOCAL);
    assertThat(offer(Wait.NONE, 5, 4, 3.0, 3.0).level()).isEqualTo(Locality.RACK_LOCAL);
    LocalityDelay.Allowed off = LocalityDelay.fair(Wait.NONE.offered(), 4, -1, 0.5);
    assertThat(off.level()).isEqualTo(Locality.OFF_SWITCH);
    assertThat(off.next()).as("nothing is kept without delay").isEqualTo(new Wait(null, 1));
  }

  @Test
  void fairThresholdZeroRelaxesAtTheSecondOpportunity() {
    // The first opportunity only starts the request at node-local; the next is more than 0.
    assertThat(offer(Wait.NONE, 1, 10, 0, 0).level()).isEqualTo(Locality.NODE_LOCAL);
    assertThat(offer(Wait.NONE, 2, 10, 0, 0).level()).isEqualTo(Locality.RACK_LOCAL);
  }

  @Test
  void aMoreLocalPlacementBringsTheAllowedLevelBackAndKeepsTheCount() {
    Wait off = new Wait(Locality.OFF_SWITCH, 4);
    assertThat(LocalityDelay.afterFairPlacement(off, Locality.NODE_LOCAL)).isEqualTo(new Wait(Locality.NODE_LOCAL, 4));
    assertThat(LocalityDelay.afterFairPlacement(off, Locality.RACK_LOCAL)).isEqualTo(new Wait(Locality.RACK_LOCAL, 4));
    assertThat(LocalityDelay.afterFairPlacement(off, Locality.OFF_SWITCH)).isEqualTo(off);
    Wait rack = new Wait(Locality.RACK_LOCAL, 1);
    assertThat(LocalityDelay.afterFairPlacement(rack, Locality.NODE_LOCAL)).isEqualTo(new Wait(Locality.NODE_LOCAL, 1));
    assertThat(LocalityDelay.afterFairPlacement(Wait.NONE, Locality.NODE_LOCAL)).isEqualTo(Wait.NONE);
  }

  @Test
  void capacityGoesRackLocalAfterNodeLocalityDelayMissedOpportunities() {
    // Hadoop's default node-locality-delay 40 on a 100-node cluster: rack-local from the 41st
    // missed opportunity. On a 30-node cluster the delay is capped at 30.
    assertThat(LocalityDelay.capacityAllows(Locality.RACK_LOCAL, 40, 100, 40, -1, 3, 1)).isFalse();
    assertThat(LocalityDelay.capacityAllows(Locality.RACK_LOCAL, 41, 100, 40, -1, 3, 1)).isTrue();
    assertThat(LocalityDelay.capacityAllows(Locality.RACK_LOCAL, 31, 30, 40, -1, 3, 1)).isTrue();
    assertThat(LocalityDelay.capacityAllows(Locality.NODE_LOCAL, 0, 100, 40, -1, 3, 1)).isTrue();
  }

  @Test
  void capacityOffSwitchWithoutAnAdditionalDelayWaitsInProportionToTheRequest() {
    // A request naming 2 hosts, 1 rack and * (4 locations) for 10 containers on 100 nodes: the
    // wait factor is 3 / 100, so it waits for more than 10 x 0.03 = 0.3 missed opportunities.
    assertThat(LocalityDelay.localityWaitFactor(4, 100)).isEqualTo(0.03f);
    assertThat(LocalityDelay.capacityAllows(Locality.OFF_SWITCH, 0, 100, 40, -1, 4, 10)).isFalse();
    assertThat(LocalityDelay.capacityAllows(Locality.OFF_SWITCH, 1, 100, 40, -1, 4, 10)).isTrue();
    // 500 containers would want 15; capped by the cluster's 10 nodes here (factor 3/10): 150 > 10.
    assertThat(LocalityDelay.capacityAllows(Locality.OFF_SWITCH, 10, 10, 40, -1, 4, 500)).isFalse();
    assertThat(LocalityDelay.capacityAllows(Locality.OFF_SWITCH, 11, 10, 40, -1, 4, 500)).isTrue();
    // A request for * alone is never delayed; an empty cluster places nothing.
    assertThat(LocalityDelay.capacityAllows(Locality.OFF_SWITCH, 0, 100, 40, -1, 1, 10)).isTrue();
    assertThat(LocalityDelay.capacityAllows(Locality.OFF_SWITCH, 5, 0, 40, -1, 1, 10)).isFalse();
  }

  @Test
  void capacityOffSwitchWithAnAdditionalDelayWaitsForBothDelays() {
    // node-locality-delay 40 plus rack-locality-additional-delay 20: off-switch after 60 missed.
    assertThat(LocalityDelay.capacityAllows(Locality.OFF_SWITCH, 60, 100, 40, 20, 4, 10)).isFalse();
    assertThat(LocalityDelay.capacityAllows(Locality.OFF_SWITCH, 61, 100, 40, 20, 4, 10)).isTrue();
    assertThat(LocalityDelay.capacityAllows(Locality.OFF_SWITCH, 51, 50, 40, 20, 4, 10)).isTrue();
  }

  @Test
  void capacityStartsTheCountAgainAfterNodeLocalAndOptionallyRackLocal() {
    assertThat(LocalityDelay.capacityResets(Locality.NODE_LOCAL, false)).isTrue();
    assertThat(LocalityDelay.capacityResets(Locality.RACK_LOCAL, true)).isTrue();
    assertThat(LocalityDelay.capacityResets(Locality.RACK_LOCAL, false)).isFalse();
    assertThat(LocalityDelay.capacityResets(Locality.OFF_SWITCH, true)).isFalse();
  }
}
