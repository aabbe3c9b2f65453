package dev.bobbin.core.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.config.QueuePath;
import org.junit.jupiter.api.Test;

class ApplicationPrioritiesTest {
  /** A cluster cap of 10, leaf {@code root.a} defaulting to 3 and every other leaf to 0. */
  private static final ApplicationPriorities CAPPED_AT_TEN = new ApplicationPriorities() {
    @Override
    public int maxPriority() {
      return 10;
    }

    @Override
    public int defaultPriority(QueuePath leaf) {
      return leaf.equals(QueuePath.of("root.a")) ? 3 : 0;
    }
  };

  @Test
  void aSubmissionWithoutPriorityTakesItsLeafsDefault() {
    assertThat(CAPPED_AT_TEN.atSubmission(ApplicationPriorities.NONE_ASKED, QueuePath.of("root.a"))).isEqualTo(3);
    assertThat(CAPPED_AT_TEN.atSubmission(ApplicationPriorities.NONE_ASKED, QueuePath.of("root.b"))).isZero();
    // Asked for explicitly, even 0, the leaf's default does not apply.
    assertThat(CAPPED_AT_TEN.atSubmission(0, QueuePath.of("root.a"))).isZero();
  }

  @Test
  void aPriorityAboveTheClustersMaximumBecomesTheMaximum() {
    assertThat(CAPPED_AT_TEN.atSubmission(7, QueuePath.of("root.a"))).isEqualTo(7);
    assertThat(CAPPED_AT_TEN.atSubmission(11, QueuePath.of("root.a"))).isEqualTo(10);
    assertThat(CAPPED_AT_TEN.capped(10)).isEqualTo(10);
    assertThat(CAPPED_AT_TEN.capped(Integer.MAX_VALUE)).isEqualTo(10);
  }

  @Test
  void fifoAndFairKeepEveryApplicationAtZeroAsYarnDoes() {
    assertThat(ApplicationPriorities.FIXED_AT_ZERO.atSubmission(5, QueuePath.of("root.default"))).isZero();
    assertThat(ApplicationPriorities.FIXED_AT_ZERO.atSubmission(ApplicationPriorities.NONE_ASKED,
        QueuePath.of("root.default"))).isZero();
    assertThat(ApplicationPriorities.FIXED_AT_ZERO.capped(9)).isZero();
  }
}
