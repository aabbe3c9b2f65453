package dev.bobbin.core.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.config.QueuePath;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.protocol.Resource;
import org.junit.jupiter.api.Test;

class SchedAppUsageTest {
  private static final String APP = "application_1700000000000_0001";
  private static final String ATTEMPT = "appattempt_1700000000000_0001_000001";
  private final SchedApp app = new SchedApp(new Waiting(), APP, QueuePath.of("default"), "alice", 0, 0, Resource.of(1024, 1), null);

  private static SchedContainer container(int seq, long memory, boolean am) {
    String id = "container_e1_1700000000000_0001_01_" + String.format("%06d", seq);
    return new SchedContainer(new ContainerEntity.Allocation(id, APP, ATTEMPT, "h:1", "h:1", Resource.of(memory, 1),
        0, -1, am), 0);
  }

  @Test
  void usageFollowsContainersAsTheyComeEndAndGo() {
    SchedContainer am = container(1, 1024, true);
    SchedContainer worker = container(2, 2048, false);
    app.add(am);
    app.add(worker);
    app.add(worker);
    assertThat(app.used()).isEqualTo(Resource.of(3072, 2));
    assertThat(app.amUsed()).isEqualTo(Resource.of(1024, 1));

    // Completing: no longer counted, though its id stays until the completion is durable.
    app.ending(worker);
    worker.phase = SchedContainer.Phase.COMPLETING;
    assertThat(app.used()).isEqualTo(Resource.of(1024, 1));
    app.remove(worker);
    app.remove(worker);
    assertThat(app.used()).isEqualTo(Resource.of(1024, 1));
    assertThat(app.containers).containsExactly(am.id());

    // A live container taken back (its write failed) stops counting at once.
    app.remove(am);
    assertThat(app.used()).isEqualTo(Resource.NONE);
    assertThat(app.amUsed()).isEqualTo(Resource.NONE);
  }

  @Test
  void aContainerThatIsNotItsOwnChangesNothingWhenItEnds() {
    app.ending(container(7, 1024, false));
    assertThat(app.used()).isEqualTo(Resource.NONE);
  }
}
