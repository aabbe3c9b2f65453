package dev.bobbin.core.policy;

import static dev.bobbin.core.policy.LocalityFixtures.R1;
import static dev.bobbin.core.policy.LocalityFixtures.R2;
import static dev.bobbin.core.policy.LocalityFixtures.at;
import static dev.bobbin.core.policy.LocalityFixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.Resource;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where a request lets a container go, level by level, as Hadoop's schedulers read its asks. */
class LocalityRequestTest {
  private static final NodeView A = node("a", R1);
  private static final NodeView B = node("b", R1);
  private static final NodeView C = node("c", R2);

  private static LocalityRequest only(List<Ask> asks) {
    List<LocalityRequest> requests = LocalityRequest.of(asks);
    assertThat(requests).hasSize(1);
    return requests.get(0);
  }

  @Test
  void aStrictHostRequestAsBobbinSendsItWantsThatHostAlone() {
    // b's ask with a strict *, no rack named: b stands for its rack too, so b takes it node-local;
    // a, in the same rack, and c are not wanted at all.
    LocalityRequest r = only(LocalityFixtures.strictHostAsBobbinSendsIt("b", 1));
    assertThat(r.mayUse(B)).isTrue();
    assertThat(r.placement(B, Locality.NODE_LOCAL)).isEqualTo(at("b", 1, true));
    assertThat(r.mayUse(A)).isFalse();
    assertThat(r.mayUse(C)).isFalse();
    assertThat(r.placement(A, Locality.OFF_SWITCH)).isNull();
    assertThat(r.placement(C, Locality.OFF_SWITCH)).isNull();
  }

  @Test
  void aStrictHostRequestAsHadoopSendsItWantsThatHostAlone() {
    // b, its rack /r1 strict and * strict: a is in the wanted rack, but the rack may not be relaxed
    // to, and b's ask is not for a.
    LocalityRequest r = only(LocalityFixtures.strictHostAsHadoopSendsIt("b", R1, 1));
    assertThat(r.placement(B, Locality.NODE_LOCAL)).isEqualTo(at("b", 1, true));
    assertThat(r.mayUse(A)).isFalse();
    assertThat(r.placement(A, Locality.OFF_SWITCH)).isNull();
    assertThat(r.mayUse(C)).isFalse();
  }

  @Test
  void aStrictRackRequestWantsEveryNodeOfThatRackAndNoOther() {
    LocalityRequest r = only(LocalityFixtures.strictRack(R2, 2));
    assertThat(r.mayUse(C)).isTrue();
    assertThat(r.placement(C, Locality.RACK_LOCAL)).isEqualTo(at(R2, 2, true));
    // Rack-local needs the delay to allow it; the request never goes off-switch.
    assertThat(r.placement(C, Locality.NODE_LOCAL)).isNull();
    assertThat(r.mayUse(A)).isFalse();
    assertThat(r.placement(A, Locality.OFF_SWITCH)).isNull();
  }

  @Test
  void aRelaxedPreferenceGoesAsFarAsTheDelayAllows() {
    // b preferred, /r1 and * relaxed. On b: node-local whatever the delay. On a: rack-local once
    // allowed. On c: off-switch only once allowed, since the request names more than *.
    LocalityRequest r = only(LocalityFixtures.preferHost("b", R1, 1));
    assertThat(r.placement(B, Locality.NODE_LOCAL)).isEqualTo(at("b", 1, true));
    assertThat(r.placement(A, Locality.NODE_LOCAL)).isNull();
    assertThat(r.placement(A, Locality.RACK_LOCAL)).isEqualTo(at(R1, 1, true));
    assertThat(r.placement(C, Locality.RACK_LOCAL)).isNull();
    assertThat(r.placement(C, Locality.OFF_SWITCH)).isEqualTo(at(Ask.ANY, 1, true));
  }

  @Test
  void aRequestForAnywhereIsNeverDelayed() {
    LocalityRequest r = only(List.of(at(Ask.ANY, 3, true)));
    assertThat(r.locations()).isEqualTo(1);
    assertThat(r.placement(C, Locality.NODE_LOCAL)).isEqualTo(at(Ask.ANY, 3, true));
  }

  @Test
  void withNothingLeftAtStarNothingIsPlacedWhateverTheHostAsks() {
    LocalityRequest r = only(List.of(at("b", 2, true), at(R1, 2, true)));
    assertThat(r.pending()).isZero();
    assertThat(r.mayUse(B)).isFalse();
    assertThat(r.placement(B, Locality.OFF_SWITCH)).isNull();
  }

  @Test
  void aStrictRackWithAnotherRelaxedStarStillKeepsItsOtherNodesOut() {
    // Hadoop's hasContainerForNode: a rack asked for with relaxLocality off admits only its named
    // hosts, even when * is relaxed.
    LocalityRequest r = only(List.of(at("b", 1, true), at(R1, 1, false), at(Ask.ANY, 1, true)));
    assertThat(r.mayUse(A)).isFalse();
    assertThat(r.mayUse(B)).isTrue();
    assertThat(r.mayUse(C)).isTrue();
    assertThat(r.placement(C, Locality.OFF_SWITCH)).isEqualTo(at(Ask.ANY, 1, true));
  }

  @Test
  void aContainerBiggerThanTheNodeIsNotWantedThere() {
    Ask big = new Ask(1, Ask.ANY, Resource.of(8192, 1), 1, true, -1, false);
    assertThat(only(List.of(big)).mayUse(A)).isFalse();
  }

  @Test
  void requestsComeAmFirstThenByPriorityThenAllocationId() {
    Ask am = new Ask(0, Ask.ANY, Resource.of(512, 1), 1, true, -1, true);
    Ask p2 = new Ask(2, Ask.ANY, LocalityFixtures.GB, 1, true, -1, false);
    Ask p1b = new Ask(1, Ask.ANY, LocalityFixtures.GB, 1, true, 7, false);
    Ask p1a = new Ask(1, Ask.ANY, LocalityFixtures.GB, 1, true, 3, false);
    assertThat(LocalityRequest.of(List.of(p2, p1b, am, p1a))).extracting(LocalityRequest::key)
        .containsExactly(RequestKey.of(am), RequestKey.of(p1a), RequestKey.of(p1b), RequestKey.of(p2));
  }

  @Test
  void aCapacityStyleDelayIsAskedForRackThenOffSwitch() {
    LocalityRequest r = only(LocalityFixtures.preferHost("b", R1, 1));
    assertThat(r.placement(A, level -> level == Locality.RACK_LOCAL)).isEqualTo(at(R1, 1, true));
    assertThat(r.placement(C, level -> level == Locality.RACK_LOCAL)).isNull();
    assertThat(r.placement(C, level -> true)).isEqualTo(at(Ask.ANY, 1, true));
  }
}
