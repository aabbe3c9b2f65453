package dev.bobbin.core.policy;

import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The FIFO policy over several passes: YARN's accounting and relaxLocality hold, whatever the asks. */
class FifoLocalityPropertiesTest {
  private final FifoPolicy policy = new FifoPolicy();

  @Property(tries = 500)
  void neverMoreThanAskedAtAnyLevelNoStrictRequestElsewhereNoNodeOverCommitted(
      @ForAll("clusters") LocalityProperties.Cluster c) {
    LocalityProperties.runAndCheck(c, 3, (nodes, apps) -> policy.assign(List.of("a", "b"), nodes, apps));
  }

  @Provide
  Arbitrary<LocalityProperties.Cluster> clusters() {
    return LocalityProperties.clusters();
  }
}
