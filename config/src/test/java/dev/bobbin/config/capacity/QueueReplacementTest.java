package dev.bobbin.config.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.bobbin.config.SettingsException;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What refresh-queues refuses when it compares the running queues with the new file. */
class QueueReplacementTest {
  private final CapacitySchedulerConfig running =
      Fixtures.xml("root.queues", "a,b,c", "root.a.capacity", "50", "root.b.capacity", "40", "root.c.capacity", "10", "root.c.state", "STOPPED");

  @Test
  void changedCapacitiesStatesAndNewQueuesAreAccepted() {
    CapacitySchedulerConfig next =
        Fixtures.xml(
            "root.queues", "a,b,c,d", "root.a.capacity", "40", "root.b.capacity", "40", "root.c.capacity", "10", "root.d.capacity", "10",
            "root.b.state", "STOPPED");
    assertThatCode(() -> next.checkReplacement(running, Set.of("root.a", "b"))).doesNotThrowAnyException();
  }

  @Test
  void aStoppedAndDrainedQueueMayBeRemoved() {
    CapacitySchedulerConfig next = Fixtures.xml("root.queues", "a,b", "root.a.capacity", "60", "root.b.capacity", "40");
    assertThatCode(() -> next.checkReplacement(running, Set.of("root.a"))).doesNotThrowAnyException();
  }

  @Test
  void aRunningQueueMayNotBeRemoved() {
    CapacitySchedulerConfig next = Fixtures.xml("root.queues", "a,c", "root.a.capacity", "90", "root.c.capacity", "10");
    SettingsException e = catchThrowableOfType(() -> next.checkReplacement(running, Set.of()), SettingsException.class);
    assertThat(e.key()).isEqualTo("yarn.scheduler.capacity.root.queues");
    assertThat(e.getMessage()).contains("root.b cannot be removed while it is RUNNING; set its state to STOPPED");
  }

  @Test
  void aStoppedQueueStillDrainingMayNotBeRemoved() {
    CapacitySchedulerConfig next = Fixtures.xml("root.queues", "a,b", "root.a.capacity", "60", "root.b.capacity", "40");
    SettingsException e = catchThrowableOfType(() -> next.checkReplacement(running, Set.of("c")), SettingsException.class);
    assertThat(e.getMessage()).contains("root.c cannot be removed while it still holds applications; it is draining");
  }

  @Test
  void removingAParentChecksItsQueues() {
    CapacitySchedulerConfig withTeams =
        Fixtures.xml("root.a.queues", "x", "root.a.x.capacity", "100", "root.a.state", "STOPPED");
    CapacitySchedulerConfig next = Fixtures.xml(java.util.Map.of("root.queues", "b", "root.b.capacity", "100"));
    assertThatCode(() -> next.checkReplacement(withTeams, Set.of())).doesNotThrowAnyException();
    SettingsException e = catchThrowableOfType(() -> next.checkReplacement(withTeams, Set.of("root.a.x")), SettingsException.class);
    assertThat(e.key()).isEqualTo("yarn.scheduler.capacity.root.a.queues");
    assertThat(e.getMessage()).contains("root.a.x cannot be removed while it still holds applications");
  }

  @Test
  void aLeafBecomesAParentOnlyWhenStoppedAndEmpty() {
    CapacitySchedulerConfig runningLeafToParent = Fixtures.xml("root.a.queues", "x", "root.a.x.capacity", "100");
    SettingsException e = catchThrowableOfType(() -> runningLeafToParent.checkReplacement(Fixtures.xml(), Set.of()), SettingsException.class);
    assertThat(e.key()).isEqualTo("yarn.scheduler.capacity.root.a.queues");
    assertThat(e.getMessage()).contains("leaf queue root.a can become a parent queue only when STOPPED");

    CapacitySchedulerConfig stoppedLeafToParent = Fixtures.xml("root.a.queues", "x", "root.a.x.capacity", "100", "root.a.state", "STOPPED");
    assertThatCode(() -> stoppedLeafToParent.checkReplacement(Fixtures.xml(), Set.of())).doesNotThrowAnyException();
    e = catchThrowableOfType(() -> stoppedLeafToParent.checkReplacement(Fixtures.xml(), Set.of("a")), SettingsException.class);
    assertThat(e.getMessage()).contains("cannot become a parent queue while it holds applications");

    // A parent may become a leaf once its queues may go: here STOPPED with their parent, and empty.
    assertThatCode(() -> Fixtures.xml().checkReplacement(stoppedLeafToParent, Set.of())).doesNotThrowAnyException();
    e = catchThrowableOfType(() -> Fixtures.xml().checkReplacement(runningLeafToParent, Set.of()), SettingsException.class);
    assertThat(e.getMessage()).contains("root.a.x cannot be removed while it is RUNNING");
  }
}
