package dev.bobbin.core.policy;

import static dev.bobbin.core.policy.LocalityFixtures.R1;
import static dev.bobbin.core.policy.LocalityFixtures.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** One placement's accounting, as Hadoop's AppSchedulingInfo decrements a request. */
class AsksTest {
  // Three containers: one preferred on b, one on c, and the rack /r1 asked for twice.
  private static final List<Ask> ASKS = List.of(at("b", 1, true), at("c", 1, true), at(R1, 2, true),
      at(Ask.ANY, 3, true));

  @Test
  void aNodeLocalPlacementTakesOneFromTheHostTheRackAndStar() {
    assertThat(Asks.afterPlacement(ASKS, at("b", 1, true), "b", "b:1", R1))
        .containsExactly(at("c", 1, true), at(R1, 1, true), at(Ask.ANY, 2, true));
  }

  @Test
  void aRackLocalPlacementTakesOneFromTheRackAndStarOnly() {
    // On a, which nobody named: b's ask stays, as Hadoop leaves it.
    assertThat(Asks.afterPlacement(ASKS, at(R1, 2, true), "a", "a:1", R1))
        .containsExactly(at("b", 1, true), at("c", 1, true), at(R1, 1, true), at(Ask.ANY, 2, true));
  }

  @Test
  void anOffSwitchPlacementTakesOneFromStarOnly() {
    // Off-switch on b, of /r1, still takes nothing from b or /r1: the level is the ask charged.
    assertThat(Asks.afterPlacement(ASKS, at(Ask.ANY, 3, true), "b", "b:1", R1))
        .containsExactly(at("b", 1, true), at("c", 1, true), at(R1, 2, true), at(Ask.ANY, 2, true));
  }

  @Test
  void theLastContainerOfARequestTakesItsAsksAway() {
    List<Ask> strict = LocalityFixtures.strictHostAsBobbinSendsIt("b", 1);
    assertThat(Asks.afterPlacement(strict, at("b", 1, true), "b", "b:1", R1)).isEmpty();
  }

  @Test
  void anUndonePlacementGivesEachAskItsContainerBackWithItsOwnFlag() {
    // The strict request placed on b leaves nothing; its write fails, and it is strict again.
    List<Ask> strict = LocalityFixtures.strictHostAsHadoopSendsIt("b", R1, 1);
    List<Ask> charged = Asks.charged(strict, at("b", 1, true), "b", "b:1", R1);
    assertThat(charged).containsExactlyElementsOf(strict);
    List<Ask> left = Asks.afterPlacement(strict, at("b", 1, true), "b", "b:1", R1);
    assertThat(Asks.restored(left, charged)).containsExactlyElementsOf(strict);
    // Given back to asks that still hold containers, the counts go up by one.
    List<Ask> two = LocalityFixtures.strictHostAsHadoopSendsIt("b", R1, 2);
    List<Ask> afterOne = Asks.afterPlacement(two, at("b", 2, true), "b", "b:1", R1);
    assertThat(Asks.restored(afterOne, Asks.charged(two, at("b", 2, true), "b", "b:1", R1)))
        .containsExactlyElementsOf(two);
  }

  @Test
  void anAskOfAnotherRequestKeyIsNotCharged() {
    Ask otherPriority = new Ask(2, Ask.ANY, LocalityFixtures.GB, 4, true, -1, false);
    List<Ask> asks = List.of(at(Ask.ANY, 1, true), otherPriority);
    assertThat(Asks.afterPlacement(asks, at(Ask.ANY, 1, true), "a", "a:1", R1)).containsExactly(otherPriority);
  }

  @Test
  void anAskForAnotherPlaceCannotBeChargedForThisNode() {
    assertThatThrownBy(() -> Asks.levelOf(at("c", 1, true), "b", "b:1", R1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(Asks.levelOf(at("b:1", 1, true), "b", "b:1", R1)).isEqualTo(Locality.NODE_LOCAL);
  }
}
