package dev.bobbin.compat.fair;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Bobbin's steady, instantaneous and per-application fair shares against Hadoop 3.4's own
 * FairScheduler policies, on generated trees: any difference, in any unit of memory or vcores, in
 * any queue or application, fails.
 */
class ComputeFairSharesCompatibilityTest {

  @Property(tries = 1000)
  void sharesEqualHadoops(@ForAll("cases") ShareCase c) {
    HadoopFairShares.Shares hadoop = HadoopFairShares.compute(c);
    HadoopFairShares.Shares bobbin = BobbinFairShares.compute(c);
    assertThat(bobbin.steady()).as("steady shares").containsExactlyInAnyOrderEntriesOf(hadoop.steady());
    assertThat(bobbin.fair()).as("instantaneous shares").containsExactlyInAnyOrderEntriesOf(hadoop.fair());
    assertThat(bobbin.apps()).as("application shares").containsExactlyInAnyOrderEntriesOf(hadoop.apps());
  }

  @Provide
  Arbitrary<ShareCase> cases() {
    return Arbitraries.randomValue(ShareCases::generate);
  }
}
