package dev.bobbin.core.policy.fair;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.policy.fair.WeightedSplit.Claim;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The split behind every share, on the cases of Hadoop's TestComputeFairShares. Hadoop's pools
 * there have demands; ours have max shares, which is what caps a share now that demand does not.
 */
class WeightedSplitTest {
  private static final long NO_MAX = Long.MAX_VALUE;

  private static long[] split(long amount, Claim... claims) {
    return WeightedSplit.split(List.of(claims), amount);
  }

  private static Claim w(double weight) {
    return Claim.of(weight, 0, NO_MAX);
  }

  @Test
  void equalWeightsShareEqually() {
    // Four claimants of weight 1 and 40 units: R = 10, so 10 each.
    assertThat(split(40, w(1), w(1), w(1), w(1))).containsExactly(10, 10, 10, 10);
  }

  @Test
  void lowMaxSharesPassTheRestOn() {
    // Equal sharing would give 10 each, but the fourth may hold only 3. The other three split 37,
    // about 12.3 each, which is more than the third's max of 11, so it gets 11. The first two split
    // the 26 left: 13 each (R = 13).
    assertThat(split(40, Claim.of(1, 0, 100), Claim.of(1, 0, 50), Claim.of(1, 0, 11), Claim.of(1, 0, 3)))
        .containsExactly(13, 13, 11, 3);
  }

  @Test
  void minSharesThatUseEverythingAreGivenExactly() {
    // The mins 20 + 18 + 0 + 2 use all 40 units, so R stays at 0 and each gets its min.
    assertThat(split(40, Claim.of(1, 20, NO_MAX), Claim.of(1, 18, NO_MAX), Claim.of(1, 0, NO_MAX), Claim.of(1, 2, NO_MAX)))
        .containsExactly(20, 18, 0, 2);
  }

  @Test
  void weightsScaleTheShares() {
    // Weights 2 : 1 : 1 : 0.5 over 45 units: R = 10, so 20, 10, 10 and 5.
    assertThat(split(45, w(2), w(1), w(1), w(0.5))).containsExactly(20, 10, 10, 5);
  }

  @Test
  void weightsWithMaxShares() {
    // The first stops at its max of 10, leaving 35. A 1 : 1 : 0.5 split would give 14 : 14 : 7, but
    // the second may hold only 11. The last two split the remaining 24 as 1 : 0.5, so 16 and 8.
    assertThat(split(45, Claim.of(2, 0, 10), Claim.of(1, 0, 11), Claim.of(1, 0, 30), Claim.of(0.5, 0, 20)))
        .containsExactly(10, 11, 16, 8);
  }

  @Test
  void weightsWithMinShares() {
    // The first (weight 2) has a min of 20 and the last (weight 0.5) a min of 15. With R = 5 the
    // weights give 10, 5, 5 and 2.5, so the mins win for the first and last: 20 + 5 + 5 + 15 = 45.
    // The third's min of 5 is met by R alone.
    assertThat(split(45, Claim.of(2, 20, NO_MAX), Claim.of(1, 0, NO_MAX), Claim.of(1, 5, NO_MAX), Claim.of(0.5, 15, NO_MAX)))
        .containsExactly(20, 5, 5, 15);
  }

  @Test
  void largeAmountsStayExact() {
    long million = 1_000_000L;
    assertThat(split(40 * million, w(1), w(1), w(1), w(1)))
        .containsExactly(10 * million, 10 * million, 10 * million, 10 * million);
  }

  @Test
  void nobodyToShareWith() {
    assertThat(split(40)).isEmpty();
  }

  @Test
  void sharesAreTakenAtTheTopOfTheSearchBracket() {
    // 10 units, three equal claimants. No ratio gives exactly 10 (3 each below R = 4, 12 from it),
    // so the search closes in on R = 4 from below and every share is taken there: 4 + 4 + 4, more
    // than the amount, as in Hadoop.
    assertThat(split(10, w(1), w(1), w(1))).containsExactly(4, 4, 4);
  }

  @Test
  void anOddUnitGoesToEveryone() {
    // 1025 between two equal claimants: 513 each, 1026 in all.
    assertThat(split(1025, w(1), w(1))).containsExactly(513, 513);
  }

  @Test
  void aZeroWeightGetsItsMinShareOnly() {
    // The zero-weight claimant takes its min of 5 off the top and nothing more; the other two split
    // the 35 left. No ratio gives 35 exactly (34 below R = 18, 36 from it), so both get 18. With no
    // min the zero-weight one would get nothing.
    assertThat(split(40, Claim.of(0, 5, NO_MAX), w(1), w(1), Claim.of(0, 0, NO_MAX)))
        .containsExactly(5, 18, 18, 0);
  }

  @Test
  void aZeroMaxGetsNothing() {
    assertThat(split(40, Claim.of(1, 0, 0), w(1))).containsExactly(0, 40);
  }

  @Test
  void theAmountIsCappedByTheSumOfMaxes() {
    // The maxes add up to 15 of the 40: each gets its max and 25 stays unassigned.
    assertThat(split(40, Claim.of(1, 0, 10), Claim.of(3, 0, 5))).containsExactly(10, 5);
  }

  @Test
  void anInactiveClaimantGetsNothing() {
    Claim idle = new Claim(1f, 30, NO_MAX, false);
    assertThat(split(40, idle, w(1))).containsExactly(0, 40);
  }

  @Test
  void oversubscribedMinSharesAreHandedOutInFull() {
    // Mins of 30 and 10 against 20 units: the search falls towards R = 0 and each gets its min,
    // 40 of the 20, as in Hadoop; the claimant without a min gets nothing.
    assertThat(split(20, Claim.of(1, 30, NO_MAX), Claim.of(1, 10, NO_MAX), w(1))).containsExactly(30, 10, 0);
  }
}
