package dev.bobbin.core.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.Resource;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class AllocationLimitsPropertiesTest {
  record Case(AllocationLimits limits, Resource ask) {}

  @Property(tries = 500)
  void aNormalizedAskIsAtLeastTheAskAndTheMinimumUnlessCappedAtTheMaximum(@ForAll("cases") Case c) {
    Resource n = c.limits().normalize(c.ask());
    Resource min = c.limits().minimum();
    Resource max = c.limits().maximum();
    assertThat(n.memory()).isLessThanOrEqualTo(max.memory());
    assertThat(n.vCores()).isLessThanOrEqualTo(max.vCores());
    if (n.memory() < max.memory()) {
      assertThat(n.memory()).isGreaterThanOrEqualTo(Math.max(c.ask().memory(), min.memory()));
      assertThat(n.memory() % min.memory()).isZero();
    }
    if (n.vCores() < max.vCores()) {
      assertThat(n.vCores()).isGreaterThanOrEqualTo(Math.max(c.ask().vCores(), min.vCores()));
      assertThat(n.vCores() % min.vCores()).isZero();
    }
  }

  @Property(tries = 500)
  void normalizingTwiceChangesNothingMore(@ForAll("cases") Case c) {
    Resource once = c.limits().normalize(c.ask());
    assertThat(c.limits().normalize(once)).isEqualTo(once);
  }

  @Property(tries = 100)
  void anAskOfAMultipleOfTheMinimumWithinTheMaximumIsKept(@ForAll("cases") Case c) {
    Resource min = c.limits().minimum();
    Resource exact = new Resource(min.memory() * 2, min.vCores());
    if (!c.limits().maximum().fits(exact)) return;
    assertThat(c.limits().normalize(exact)).isEqualTo(exact);
  }

  @Provide
  Arbitrary<Case> cases() {
    Arbitrary<Long> minMb = Arbitraries.of(128L, 256L, 512L, 1000L, 1024L);
    Arbitrary<Integer> minVcores = Arbitraries.integers().between(1, 4);
    return Combinators.combine(minMb, minVcores, Arbitraries.integers().between(1, 64),
            Arbitraries.integers().between(1, 16), Arbitraries.longs().between(-10, 200_000),
            Arbitraries.integers().between(-2, 100))
        .as((mb, vc, maxTimes, maxVcTimes, askMb, askVc) -> new Case(
            new AllocationLimits(new Resource(mb, vc), new Resource(mb * maxTimes + maxTimes % 3, vc * maxVcTimes)),
            new Resource(askMb, askVc)));
  }
}
