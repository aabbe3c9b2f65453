package dev.bobbin.compat.fair;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Cases where Hadoop's numbers are not what an even split would give, run through Hadoop's own
 * policies and through Bobbin: both must give the number written here.
 */
class KnownShareCasesTest {

  @Test
  void anOddMegabyteGoesToBothQueues() {
    Both s = run(1025, 8, root("fair", leaf("a", "1", 0), leaf("b", "1", 0)));
    s.steady("root.a", 513, 0);
    s.steady("root.b", 513, 0);
  }

  @Test
  void drfSplitsThreeVcoresTwoAndTwo() {
    Both s = run(2048, 3, root("drf", leaf("a", "1", 0), leaf("b", "1", 0)));
    s.steady("root.a", 1024, 2);
    s.steady("root.b", 1024, 2);
  }

  @Test
  void threeActiveQueuesOfFourAndThreeApplicationsInOne() {
    Both s = run(10000, 8, root("fair", leaf("a", "1", 3), leaf("b", "1", 1), leaf("c", "1", 1), leaf("d", "1", 0)));
    s.fair("root.a", 3334, 0);
    s.fair("root.b", 3334, 0);
    s.fair("root.c", 3334, 0);
    s.fair("root.d", 0, 0);
    for (int i = 0; i < 3; i++) s.app("application_1_" + (1000 + i), 1112, 0);
  }

  @Test
  void weightsTenAndOne() {
    Both s = run(1029, 8, root("fair", leaf("a", "10", 0), leaf("b", "1", 0)));
    s.steady("root.a", 936, 0);
    s.steady("root.b", 93, 0);
  }

  @Test
  void aMinAboveTheClusterIsHandedOutWhole() {
    Both s = run(1024, 8, root("fair", new QueueCase("a", "1", "2048 mb, 0 vcores", null, "fair", 0, List.of())));
    s.steady("root.a", 2048, 0);
  }

  @Test
  void twoMinsThatEachFillTheClusterAreBothMet() {
    Both s = run(1024, 8, root("fair",
        new QueueCase("a", "1", "1024 mb, 0 vcores", null, "fair", 1, List.of()),
        new QueueCase("b", "1", "1024 mb, 0 vcores", null, "fair", 1, List.of())));
    s.fair("root.a", 1024, 0);
    s.fair("root.b", 1024, 0);
  }

  @Test
  void aChildsMinIsMetUnderAZeroWeightParent() {
    QueueCase p = new QueueCase("p", "0", null, null, "fair", 0, List.of(
        new QueueCase("c", "1", "512 mb, 0 vcores", null, "fair", 0, List.of()), leaf("d", "1", 0)));
    Both s = run(2048, 8, root("fair", p, leaf("q", "1", 0)));
    s.steady("root.p", 0, 0);
    s.steady("root.p.c", 512, 0);
    s.steady("root.q", 2048, 0);
  }

  @Test
  void aHugeClusterShowsTheSearchPrecision() {
    Both s = run(100_000_000L, 100_000, root("drf", leaf("a", "10", 0), leaf("b", "1", 0)));
    s.steady("root.a", 90_909_095, 90_910);
    s.steady("root.b", 9_090_909, 9_091);
  }

  private record Both(HadoopFairShares.Shares hadoop, HadoopFairShares.Shares bobbin) {
    void steady(String queue, long memory, long vcores) {
      assertThat(hadoop.steady().get(queue)).as("Hadoop, steady, %s", queue).isEqualTo(new Amount(memory, vcores));
      assertThat(bobbin.steady().get(queue)).as("Bobbin, steady, %s", queue).isEqualTo(new Amount(memory, vcores));
    }

    void fair(String queue, long memory, long vcores) {
      assertThat(hadoop.fair().get(queue)).as("Hadoop, instantaneous, %s", queue).isEqualTo(new Amount(memory, vcores));
      assertThat(bobbin.fair().get(queue)).as("Bobbin, instantaneous, %s", queue).isEqualTo(new Amount(memory, vcores));
    }

    void app(String id, long memory, long vcores) {
      assertThat(hadoop.apps().get(id)).as("Hadoop, %s", id).isEqualTo(new Amount(memory, vcores));
      assertThat(bobbin.apps().get(id)).as("Bobbin, %s", id).isEqualTo(new Amount(memory, vcores));
    }
  }

  private static Both run(long memory, int vcores, QueueCase root) {
    List<Long> starts = new ArrayList<>();
    for (int i = 0; i < 16; i++) starts.add(1000L + i);
    ShareCase c = new ShareCase(memory, vcores, root, ShareCase.appsOf(root, starts));
    return new Both(HadoopFairShares.compute(c), BobbinFairShares.compute(c));
  }

  private static QueueCase root(String policy, QueueCase... children) {
    return new QueueCase("root", "1", null, null, policy, 0, List.of(children));
  }

  private static QueueCase leaf(String name, String weight, int apps) {
    return new QueueCase(name, weight, null, null, "fair", apps, List.of());
  }
}
