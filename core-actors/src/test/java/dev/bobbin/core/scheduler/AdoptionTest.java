package dev.bobbin.core.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.protocol.Resource;
import org.junit.jupiter.api.Test;

class AdoptionTest {
  private static final Resource GB = new Resource(1024, 1);
  private static final Resource NODE = new Resource(4096, 4);

  private static ContainerEntity.Report report(String nodeId, ContainerEntity.Phase phase) {
    return new ContainerEntity.Report(new ContainerEntity.Allocation("c1", "app", "att", nodeId, nodeId, GB, 1, -1,
        false), phase, 1, 0, 0, -1000, "", null);
  }

  @Test
  void aLiveAllocationOnTheReportingNodeThatFitsIsAdopted() {
    assertThat(Adoption.refusal(report("n:1", ContainerEntity.Phase.RUNNING), "n:1", true, Resource.NONE, NODE))
        .isNull();
    assertThat(Adoption.refusal(report("n:1", ContainerEntity.Phase.ALLOCATED), "n:1", true, new Resource(3072, 3),
        NODE)).isNull();
  }

  @Test
  void everythingElseIsKilledWithTheReason() {
    assertThat(Adoption.refusal(null, "n:1", true, Resource.NONE, NODE)).contains("no allocation");
    assertThat(Adoption.refusal(report("n:1", ContainerEntity.Phase.COMPLETED), "n:1", true, Resource.NONE, NODE))
        .contains("completion is already recorded");
    assertThat(Adoption.refusal(report("n:2", ContainerEntity.Phase.RUNNING), "n:1", true, Resource.NONE, NODE))
        .contains("allocated on node n:2");
    assertThat(Adoption.refusal(report("n:1", ContainerEntity.Phase.RUNNING), "n:1", false, Resource.NONE, NODE))
        .contains("attempt att has ended");
    assertThat(Adoption.refusal(report("n:1", ContainerEntity.Phase.RUNNING), "n:1", true, new Resource(3584, 1),
        NODE)).contains("no room");
  }
}
