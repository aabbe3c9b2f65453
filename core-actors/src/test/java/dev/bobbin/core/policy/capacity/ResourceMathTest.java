package dev.bobbin.core.policy.capacity;

import static dev.bobbin.core.policy.capacity.ResourceMath.DEFAULT;
import static dev.bobbin.core.policy.capacity.ResourceMath.DOMINANT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.protocol.Resource;
import org.junit.jupiter.api.Test;

/** The roundings of Hadoop's DefaultResourceCalculator and DominantResourceCalculator, number by number. */
class ResourceMathTest {
  private static final Resource GB = new Resource(1024, 1);
  private static final Resource CLUSTER = new Resource(100 * 1024, 10);

  @Test
  void theDefaultCalculatorReadsMemoryAndGivesOneVcoreToWhatHasMemory() {
    // 5000 MB rounded up to 1024 MB steps is 5120 MB; the vcores are not computed but set to 1.
    assertThat(DEFAULT.roundUp(new Resource(5000, 7), GB)).isEqualTo(new Resource(5120, 1));
    assertThat(DEFAULT.roundDown(new Resource(1000, 7), GB)).isEqualTo(Resource.NONE);
    // Less memory is less, whatever the vcores.
    assertThat(DEFAULT.lessThan(CLUSTER, new Resource(1024, 99), new Resource(2048, 1))).isTrue();
    assertThat(DEFAULT.fitsIn(new Resource(1024, 99), new Resource(1024, 1))).isTrue();
  }

  @Test
  void theDefaultCalculatorRoundsHalfUpBeforeTheStepAndTheDominantOneTakesTheCeilingOfAFloat() {
    // maximum-am-resource-percent 0.1 of a queue of 10241 MB is 1024.1 MB. The default calculator
    // adds 0.5 and truncates, 1024, already a step: 1 GB. The dominant one takes the ceiling, 1025,
    // rounded up to the step: 2 GB.
    assertThat(DEFAULT.multiplyAndNormalizeUp(new Resource(10241, 10), 0.1f, GB)).isEqualTo(new Resource(1024, 1));
    assertThat(DOMINANT.multiplyAndNormalizeUp(new Resource(10241, 10), 0.1f, GB)).isEqualTo(new Resource(2048, 1));
    // 10 % of 10240 MB as doubles is 1024.0000153 (0.1f is 0.100000001490116...): seen as a float
    // it is 1024 again, so the ceiling does not add a megabyte.
    assertThat(DOMINANT.multiplyAndNormalizeUp(new Resource(10240, 10), 0.1f, GB)).isEqualTo(new Resource(1024, 1));
    // 100 x 1.1 is 110.00000000000001 in doubles but 110f as a float: the ceiling is 110, not 111.
    Resource mb = new Resource(1, 1);
    assertThat(DOMINANT.multiplyAndNormalizeUp(new Resource(100, 0), 1.1, mb).memory()).isEqualTo(110);
    // 1500 MB x 0.5 = 750 MB, with a 100 MB step: half up gives 800 for both; the vcores differ.
    Resource step = new Resource(100, 1);
    assertThat(DEFAULT.multiplyAndNormalizeUp(new Resource(1500, 3), 0.5, step)).isEqualTo(new Resource(800, 1));
    // 3 vcores x 0.5 = 1.5, ceiling 2.
    assertThat(DOMINANT.multiplyAndNormalizeUp(new Resource(1500, 3), 0.5, step)).isEqualTo(new Resource(800, 2));
    // 1049 MB x 0.5 = 524.5: half up gives 525, the ceiling 525 too; 1047 x 0.5 = 523.5 -> 524 both.
    assertThat(DEFAULT.multiplyAndNormalizeUp(new Resource(1049, 0), 0.5, mb).memory()).isEqualTo(525);
    assertThat(DOMINANT.multiplyAndNormalizeUp(new Resource(1049, 0), 0.5, mb).memory()).isEqualTo(525);
    // 1001 MB x 0.25 = 250.25 and 1000 MB x 0.0004 = 0.4: the default calculator rounds them down,
    // the dominant one up.
    assertThat(DEFAULT.multiplyAndNormalizeUp(new Resource(1001, 0), 0.25, mb).memory()).isEqualTo(250);
    assertThat(DOMINANT.multiplyAndNormalizeUp(new Resource(1001, 0), 0.25, mb).memory()).isEqualTo(251);
    assertThat(DEFAULT.multiplyAndNormalizeUp(new Resource(1000, 0), 0.0004, mb).memory()).isZero();
    assertThat(DOMINANT.multiplyAndNormalizeUp(new Resource(1000, 0), 0.0004, mb).memory()).isEqualTo(1);
  }

  @Test
  void dividingByAFloatHappensInFloats() {
    // 16777217 MB is not a float: (float) 16777217 is 16777216, so the ceiling over 1 is 16777216.
    assertThat(DEFAULT.divideAndCeil(new Resource(16_777_217, 0), 1f).memory()).isEqualTo(16_777_216);
    // 1024 MB over 2.5 users = 409.6, up to 410; the vcores too with the dominant calculator.
    assertThat(DOMINANT.divideAndCeil(new Resource(1024, 3), 2.5f)).isEqualTo(new Resource(410, 2));
    // Over no users at all: 0.
    assertThat(DOMINANT.divideAndCeil(new Resource(1024, 3), 0f)).isEqualTo(Resource.NONE);
    assertThat(DEFAULT.divideAndCeil(new Resource(1025, 3), 100)).isEqualTo(new Resource(11, 1));
  }

  @Test
  void theDominantCalculatorComparesTheLargerShareOfTheCluster() {
    // Of 100 GB and 10 vcores: 30 GB and 1 vcore is a 30 % share, 10 GB and 4 vcores a 40 % share.
    Resource memoryHeavy = new Resource(30 * 1024, 1);
    Resource cpuHeavy = new Resource(10 * 1024, 4);
    assertThat(DOMINANT.lessThan(CLUSTER, memoryHeavy, cpuHeavy)).isTrue();
    assertThat(DEFAULT.lessThan(CLUSTER, memoryHeavy, cpuHeavy)).isFalse();
    // Equal dominant shares (50 %): the other share decides, 10 % against 20 %.
    assertThat(DOMINANT.compare(CLUSTER, new Resource(50 * 1024, 1), new Resource(20 * 1024, 5))).isNegative();
    // Ratios: the larger of the per-type ratios; 40 % of the memory and 10 % of the vcores is 0.4.
    assertThat(DOMINANT.ratio(new Resource(40 * 1024, 1), CLUSTER)).isEqualTo(0.4f);
    assertThat(DOMINANT.divide(CLUSTER, cpuHeavy, memoryHeavy)).isEqualTo((float) (0.4 / 0.3));
    // A type the cluster has none of is left out of the division, and over nothing the ratio is 0.
    assertThat(DOMINANT.divide(new Resource(1024, 0), new Resource(512, 5), GB)).isEqualTo(0.5f);
    assertThat(DOMINANT.ratio(Resource.NONE, Resource.NONE)).isZero();
  }

  @Test
  void normalizeLiftsToTheMinimumRoundsToTheStepAndCapsAtTheMaximum() {
    Resource max = new Resource(8192, 4);
    assertThat(DOMINANT.normalize(new Resource(100, 0), GB, max, GB)).isEqualTo(GB);
    assertThat(DOMINANT.normalize(new Resource(3000, 9), GB, max, GB)).isEqualTo(new Resource(3072, 4));
    assertThat(DEFAULT.normalize(new Resource(9000, 9), GB, max, GB)).isEqualTo(new Resource(8192, 1));
  }

  @Test
  void theCalculatorIsNamedAsHadoopNamesIt() {
    assertThat(ResourceMath.fromConfig("org.apache.hadoop.yarn.util.resource.DominantResourceCalculator"))
        .isEqualTo(DOMINANT);
    assertThat(ResourceMath.fromConfig(" org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator "))
        .isEqualTo(DEFAULT);
    assertThatThrownBy(() -> ResourceMath.fromConfig("org.example.FancyCalculator"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("yarn.scheduler.capacity.resource-calculator")
        .hasMessageContaining("org.example.FancyCalculator");
  }
}
