package dev.bobbin.core.scheduler;

import static dev.bobbin.core.scheduler.ModelFixtures.APP;
import static dev.bobbin.core.scheduler.ModelFixtures.ATTEMPT;
import static dev.bobbin.core.scheduler.ModelFixtures.NODE;
import static dev.bobbin.core.scheduler.ModelFixtures.addAttempt;
import static dev.bobbin.core.scheduler.ModelFixtures.addNode;
import static dev.bobbin.core.scheduler.ModelFixtures.place;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.Assignment;
import dev.bobbin.protocol.Resource;
import org.junit.jupiter.api.Test;

/** Whether a placement fits its node is the policy's rule: every resource, or memory alone. */
class SchedulerModelFitTest {
  @Test
  void byDefaultEveryResourceMustFitAndUnderAMemoryOnlyRuleMemoryAlone() {
    SchedulerModel strict = new SchedulerModel();
    addNode(strict, NODE, Resource.of(4096, 2));
    addAttempt(strict, APP, ATTEMPT, "alice");
    assertThat(place(strict, APP, ATTEMPT, SchedContainer.Phase.RUNNING, 1)).isNotNull();
    assertThat(place(strict, APP, ATTEMPT, SchedContainer.Phase.RUNNING, 1)).isNotNull();
    // Two vcores are taken: a third 1 GB container does not fit, though 2 GB are free.
    Ask oneGb = new Ask(1, Ask.ANY, ModelFixtures.GB, 1, true, 0, false);
    assertThat(strict.place(new Assignment(APP, ATTEMPT, NODE, oneGb, "test"), 1, 1)).isNull();

    SchedulerModel memoryOnly = new SchedulerModel();
    memoryOnly.fitContainersBy((size, free) -> size.memory() <= free.memory());
    addNode(memoryOnly, NODE, Resource.of(4096, 2));
    addAttempt(memoryOnly, APP, ATTEMPT, "alice");
    for (int i = 0; i < 4; i++) assertThat(place(memoryOnly, APP, ATTEMPT, SchedContainer.Phase.RUNNING, 1)).isNotNull();
    assertThat(memoryOnly.node(NODE).allocated).isEqualTo(Resource.of(4096, 4));
  }
}
