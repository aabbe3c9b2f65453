package dev.bobbin.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.chaos.InvariantChecker.ContainerSeen;
import dev.bobbin.protocol.Resource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class InvariantCheckerTest {
  private static final Resource CAPACITY = new Resource(4096, 4);
  private static final String APP = "application_1700000000000_0001";
  private static final String C1 = "container_e1_1700000000000_0001_01_000001";
  private static final String C2 = "container_e1_1700000000000_0001_01_000002";
  private static final String C3 = "container_e1_1700000000000_0001_01_000003";

  private final InvariantChecker checker = new InvariantChecker();
  private final Map<String, Long> finished = new HashMap<>();

  @Test
  void aHealthyApplicationBreaksNothing() {
    checker.observeNode("n1", 1000, CAPACITY, List.of(running(C1)));
    checker.observeNode("n1", 1500, CAPACITY, List.of(running(C1), running(C2), running(C3)));
    checker.observeNode("n1", 4000, CAPACITY, List.of(running(C1), ended(C2, 0), ended(C3, 0)));
    // The RM ends the AM's container after the application finished: clean-up, not loss.
    finished.put(APP, 4200L);
    checker.observeNode("n1", 4500, CAPACITY, List.of(ended(C1, -106), ended(C2, 0), ended(C3, 0)));
    checker.observeRmNode("n1", 4500, new Resource(3072, 3), CAPACITY);
    assertThat(violations()).isEmpty();
    assertThat(checker.containersSeen()).isEqualTo(3);
  }

  @Test
  void aContainerOnTwoNodesIsADoubleLaunch() {
    checker.observeNode("n1", 1000, CAPACITY, List.of(running(C1)));
    checker.observeNode("n2", 1100, CAPACITY, List.of(running(C1)));
    checker.observeNode("n2", 1600, CAPACITY, List.of(running(C1)));
    assertThat(violations()).singleElement().satisfies(v -> {
      assertThat(v.kind()).isEqualTo(Violation.Kind.DOUBLE_LAUNCH);
      assertThat(v.detail()).contains(C1, "n1", "n2");
    });
  }

  @Test
  void aContainerRunningAgainAfterItEndedIsADoubleLaunch() {
    checker.observeNode("n1", 1000, CAPACITY, List.of(running(C2)));
    checker.observeNode("n1", 2000, CAPACITY, List.of(ended(C2, 0)));
    checker.observeNode("n1", 3000, CAPACITY, List.of(running(C2)));
    assertThat(violations()).extracting(Violation::kind).containsExactly(Violation.Kind.DOUBLE_LAUNCH);
  }

  @Test
  void aContainerListedTwiceIsADoubleLaunch() {
    checker.observeNode("n1", 1000, CAPACITY, List.of(running(C2), running(C2)));
    assertThat(violations()).extracting(Violation::kind).containsExactly(Violation.Kind.DOUBLE_LAUNCH);
  }

  @Test
  void liveContainersAboveTheNodeCapacityAreAnOverCommitCountedOncePerBreach() {
    List<ContainerSeen> five = List.of(sized(C1, 1024, 1), sized(C2, 1024, 1), sized(C3, 1024, 1),
        sized("container_e1_1700000000000_0002_01_000001", 1024, 1),
        sized("container_e1_1700000000000_0002_01_000002", 512, 1));
    checker.observeNode("n1", 1000, CAPACITY, five);
    checker.observeNode("n1", 1500, CAPACITY, five);
    assertThat(violations()).singleElement().satisfies(v -> {
      assertThat(v.kind()).isEqualTo(Violation.Kind.OVER_COMMIT);
      assertThat(v.detail()).contains("n1", "<memory:4608, vCores:5>", "<memory:4096, vCores:4>");
    });
    assertThat(checker.overCommitSamples()).isEqualTo(2);
  }

  @Test
  void endedContainersDoNotCountAgainstCapacity() {
    checker.observeNode("n1", 1000, CAPACITY, List.of(sized(C1, 4096, 4), new ContainerSeen(C2, "DONE", 4096, 4, -105)));
    assertThat(violations()).isEmpty();
  }

  @Test
  void theRmAllocatingAboveANodesCapacityIsAnOverCommit() {
    checker.observeRmNode("n1", 1000, new Resource(5120, 5), CAPACITY);
    assertThat(violations()).singleElement().satisfies(v -> {
      assertThat(v.kind()).isEqualTo(Violation.Kind.OVER_COMMIT);
      assertThat(v.detail()).contains("RM's view of node n1");
    });
  }

  @Test
  void aRunningContainerAbortedWhileItsApplicationRunsIsLost() {
    checker.observeNode("n1", 1000, CAPACITY, List.of(running(C2)));
    checker.observeNode("n1", 1500, CAPACITY, List.of(ended(C2, -100)));
    finished.put(APP, 9000L); // it went on, and ended later
    assertThat(violations()).singleElement().satisfies(v -> {
      assertThat(v.kind()).isEqualTo(Violation.Kind.LOST_CONTAINER);
      assertThat(v.detail()).contains(C2, "exit status -100", APP);
    });
  }

  @Test
  void aContainerKilledByTheRmOfAnApplicationThatNeverFinishedIsLost() {
    checker.observeNode("n1", 1000, CAPACITY, List.of(running(C2)));
    checker.observeNode("n1", 1500, CAPACITY, List.of(ended(C2, -106)));
    assertThat(violations()).extracting(Violation::kind).containsExactly(Violation.Kind.LOST_CONTAINER);
  }

  @Test
  void aRunningContainerThatVanishesIsLost() {
    checker.observeNode("n1", 1000, CAPACITY, List.of(running(C2), running(C3)));
    checker.observeNode("n1", 1500, CAPACITY, List.of(running(C3)));
    assertThat(violations()).singleElement().satisfies(v -> {
      assertThat(v.kind()).isEqualTo(Violation.Kind.LOST_CONTAINER);
      assertThat(v.detail()).contains(C2, "vanished");
    });
  }

  @Test
  void containersThatFailOrAreKilledByTheirAmAreNotLost() {
    checker.observeNode("n1", 1000, CAPACITY, List.of(running(C2), running(C3)));
    checker.observeNode("n1", 1500, CAPACITY, List.of(ended(C2, 3), new ContainerSeen(C3, "DONE", 1024, 1, -105)));
    assertThat(violations()).isEmpty();
  }

  // A long-running service of 2 tasks: attempt 1's AM (AM1) started T1 and T2; AM1 died at 5000 and
  // attempt 2's AM (AM2) took them over.
  private static final String AM1 = C1;
  private static final String T1 = C2;
  private static final String T2 = C3;
  private static final String AM2 = "container_e1_1700000000000_0001_02_000001";
  private static final String T3 = "container_e1_1700000000000_0001_02_000002";
  private static final InvariantChecker.Service SERVICE =
      new InvariantChecker.Service(APP, 2, java.util.Set.of(AM1, AM2), List.of(5000L));

  @Test
  void keptTasksThatRunOnUnderTheNextAttemptBreakNothing() {
    checker.observeNode("n1", 1000, CAPACITY, List.of(running(AM1), running(T1), running(T2)));
    checker.observeNode("n1", 4500, CAPACITY, List.of(ended(AM1, 137), running(T1), running(T2)));
    checker.observeNode("n1", 7000, CAPACITY, List.of(ended(AM1, 137), running(T1), running(T2), running(AM2)));
    checker.observeNode("n1", 9000, CAPACITY, List.of(ended(AM1, 137), ended(T1, 0), ended(T2, 0), running(AM2)));
    finished.put(APP, 9500L);
    InvariantChecker.Kept kept = kept();
    assertThat(kept.violations()).isEmpty();
    assertThat(kept).extracting(InvariantChecker.Kept::services, InvariantChecker.Kept::amDeaths,
        InvariantChecker.Kept::keptContainers, InvariantChecker.Kept::keptLost).containsExactly(1, 1, 2, 0);
    assertThat(violations()).isEmpty();
  }

  @Test
  void aNewContainerForATaskWhoseKeptContainerStillRunsIsATaskRunTwice() {
    checker.observeNode("n1", 1000, CAPACITY, List.of(running(AM1), running(T1), running(T2)));
    checker.observeNode("n1", 7000, CAPACITY, List.of(ended(AM1, 137), running(T1), running(T2), running(AM2)));
    checker.observeNode("n2", 7100, CAPACITY, List.of(running(T3)));
    assertThat(kept().violations()).singleElement().satisfies(v -> {
      assertThat(v.kind()).isEqualTo(Violation.Kind.KEPT_CONTAINER);
      assertThat(v.atMs()).isEqualTo(7100);
      assertThat(v.detail()).contains(APP + " runs 2 tasks, in 3 task containers", T1 + " running", T3 + " running",
          "a task ran twice").doesNotContain(AM2);
    });
  }

  @Test
  void aTaskStartedAgainAfterItsKeptContainerFinishedIsATaskRunTwice() {
    checker.observeNode("n1", 1000, CAPACITY, List.of(running(AM1), running(T1), running(T2)));
    checker.observeNode("n1", 6000, CAPACITY, List.of(ended(AM1, 137), ended(T1, 0), running(T2)));
    checker.observeNode("n1", 8000, CAPACITY, List.of(ended(AM1, 137), ended(T1, 0), running(T2), running(AM2),
        running(T3)));
    finished.put(APP, 12000L);
    assertThat(kept().violations()).singleElement().satisfies(v -> {
      assertThat(v.kind()).isEqualTo(Violation.Kind.KEPT_CONTAINER);
      assertThat(v.detail()).contains(T1 + " exit 0", T3 + " running");
    });
  }

  @Test
  void aTaskRunAgainAfterItsContainerWasAbortedIsOnlyALoss() {
    checker.observeNode("n1", 1000, CAPACITY, List.of(running(AM1), running(T1), running(T2)));
    checker.observeNode("n1", 6000, CAPACITY, List.of(ended(AM1, 137), ended(T1, -100), running(T2)));
    checker.observeNode("n1", 8000, CAPACITY, List.of(ended(AM1, 137), ended(T1, -100), running(T2), running(AM2),
        running(T3)));
    finished.put(APP, 12000L);
    InvariantChecker.Kept kept = kept();
    assertThat(kept.violations()).isEmpty();
    assertThat(kept.keptLost()).isEqualTo(1);
    assertThat(violations()).extracting(Violation::kind).containsExactly(Violation.Kind.LOST_CONTAINER);
  }

  @Test
  void aKeptContainerKilledByTheRmIsALostContainerNotCountedTwice() {
    checker.observeNode("n1", 1000, CAPACITY, List.of(running(AM1), running(T1), running(T2)));
    checker.observeNode("n1", 6000, CAPACITY, List.of(ended(AM1, 137), ended(T1, -106), running(T2)));
    checker.observeNode("n1", 7000, CAPACITY, List.of(running(T2)));
    finished.put(APP, 12000L);
    InvariantChecker.Kept kept = kept();
    assertThat(kept.violations()).isEmpty();
    assertThat(kept.keptContainers()).isEqualTo(2);
    assertThat(kept.keptLost()).isEqualTo(1);
    assertThat(violations()).extracting(Violation::kind).containsExactly(Violation.Kind.LOST_CONTAINER);
  }

  @Test
  void aKeptContainerStoppedByTheNextAmWhileTheServiceRunsBreaksIt() {
    checker.observeNode("n1", 1000, CAPACITY, List.of(running(AM1), running(T1), running(T2)));
    checker.observeNode("n1", 7000, CAPACITY, List.of(ended(AM1, 137), ended(T1, -105), running(T2), running(AM2)));
    finished.put(APP, 12000L);
    assertThat(kept().violations()).singleElement().satisfies(v -> {
      assertThat(v.kind()).isEqualTo(Violation.Kind.KEPT_CONTAINER);
      assertThat(v.detail()).contains(T1, "running when an AM of " + APP + " died", "stopped by an AM (exit status -105)");
    });
  }

  @Test
  void onlyContainersRunningWhenAnAmDiedAreKept() {
    checker.observeNode("n1", 1000, CAPACITY, List.of(running(AM1), running(T1)));
    checker.observeNode("n1", 4000, CAPACITY, List.of(running(AM1), ended(T1, 0)));
    // T2 was first listed after the AM died: the next attempt started it, for the task T1 did not run.
    checker.observeNode("n1", 7000, CAPACITY, List.of(ended(AM1, 137), ended(T1, 0), running(AM2), running(T2)));
    checker.observeNode("n1", 8000, CAPACITY, List.of(ended(AM1, 137), ended(T1, 0), running(AM2), ended(T2, -105)));
    InvariantChecker.Kept kept = kept();
    assertThat(kept.keptContainers()).isZero();
    assertThat(kept.violations()).isEmpty();
  }

  @Test
  void anApplicationThatKeepsNothingIsNotJudgedAndAServiceKnowsItsAttempts() {
    checker.observeNode("n1", 1000, CAPACITY, List.of(running(C1), running(C2), running(C3),
        running("container_e1_1700000000000_0001_01_000004")));
    assertThat(checker.kept(List.of(), app -> OptionalLong.empty()).violations()).isEmpty();

    var attempts = List.of(attempt(1, AM1, 1000, 5000), attempt(2, "", 5200, 0), attempt(3, AM2, 6000, 0));
    InvariantChecker.Service s = InvariantChecker.Service.of(APP, 2, attempts);
    assertThat(s.amContainers()).containsExactlyInAnyOrder(AM1, AM2);
    // The second attempt ended without a finish time: when the third started.
    assertThat(s.amDeathsMs()).containsExactly(5000L, 6000L);
  }

  @Test
  void pekkoDowningLinesAreMatchedByExactAddress() {
    String line = "WARN SBR took decision DownUnreachable and is downing [pekko://bobbin@127.0.0.1:25510], [1] "
        + "unreachable of [3] members, all members in DC [Member(pekko://bobbin@127.0.0.1:2551, Up)]";
    assertThat(FaultInjector.downs(line, "pekko://bobbin@127.0.0.1:25510")).isTrue();
    assertThat(FaultInjector.downs(line, "pekko://bobbin@127.0.0.1:2551")).isFalse();
    assertThat(FaultInjector.downs("Member(pekko://bobbin@127.0.0.1:25510, Up)", "pekko://bobbin@127.0.0.1:25510"))
        .isFalse();
  }

  @Test
  void percentilesAreNearestRank() {
    List<Long> times = List.of(5L, 1L, 3L, 2L, 4L);
    assertThat(Stats.percentile(times, 50)).isEqualTo(3);
    assertThat(Stats.percentile(times, 99)).isEqualTo(5);
    assertThat(Stats.percentile(List.of(), 50)).isEqualTo(-1);
  }

  private InvariantChecker.Kept kept() {
    return checker.kept(List.of(SERVICE),
        app -> finished.containsKey(app) ? OptionalLong.of(finished.get(app)) : OptionalLong.empty());
  }

  private static dev.bobbin.protocol.rest.AppAttemptInfo attempt(int n, String am, long start, long end) {
    return new dev.bobbin.protocol.rest.AppAttemptInfo(n, "appattempt_1700000000000_0001_00000" + n, start, end, am,
        "", "n1", "", end > 0 ? "FAILED" : "RUNNING", null, "");
  }

  private List<Violation> violations() {
    return checker.violations(app -> finished.containsKey(app) ? OptionalLong.of(finished.get(app)) : OptionalLong.empty());
  }

  private static ContainerSeen running(String id) {
    return sized(id, 1024, 1);
  }

  private static ContainerSeen sized(String id, long memory, int vCores) {
    return new ContainerSeen(id, "RUNNING", memory, vCores, -1000);
  }

  private static ContainerSeen ended(String id, int exit) {
    return new ContainerSeen(id, exit == 0 ? "EXITED_WITH_SUCCESS" : exit < 0 ? "DONE" : "EXITED_WITH_FAILURE",
        1024, 1, exit);
  }
}
