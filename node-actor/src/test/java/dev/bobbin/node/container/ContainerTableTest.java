package dev.bobbin.node.container;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.ContainerState;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.Resource;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ContainerTableTest {
  final ContainerLayout layout = new ContainerLayout(Path.of("/tmp/nm"), "h:1");

  ContainerRecord record(String app, String id) {
    return ContainerRecord.created(id, app, "alice", Resource.of(512, 1), layout.dirsFor("alice", app, id), 0);
  }

  @Test
  void completedContainersAreReportedUntilAcknowledged() {
    ContainerTable table = new ContainerTable(10);
    table.add(record("app_1", "c1"));
    table.add(record("app_1", "c2"));
    table.markRunning("c1");
    table.markRunning("c2");
    table.finish("c2", 3, "bad", false, 5);

    assertThat(table.statusesToReport()).extracting(ContainerStatus::containerId, ContainerStatus::state)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("c1", ContainerState.RUNNING),
            org.assertj.core.groups.Tuple.tuple("c2", ContainerState.COMPLETE));
    assertThat(table.allocated()).isEqualTo(Resource.of(512, 1));

    table.acknowledge(List.of("c1", "c2"));
    assertThat(table.statusesToReport()).extracting(ContainerStatus::containerId).containsExactly("c1");
    assertThat(table.find("c2")).get().returns(NmContainerState.EXITED_WITH_FAILURE, ContainerRecord::state);
    assertThat(table.launchedTotal()).isEqualTo(2);
    assertThat(table.completedTotal()).isEqualTo(1);
  }

  @Test
  void historyIsBoundedButUnacknowledgedCompletionsAreKept() {
    ContainerTable table = new ContainerTable(2);
    for (int i = 0; i < 5; i++) {
      table.add(record("app_1", "c" + i));
      table.finish("c" + i, 0, "", false, i);
    }
    assertThat(table.allContainers()).extracting(ContainerRecord::containerId).containsExactly("c3", "c4");
    assertThat(table.statusesToReport()).hasSize(5);
    assertThat(table.knows("c0")).isTrue();
  }

  @Test
  void killedContainersEndDoneAndKillingStillCountsAsRunning() {
    ContainerTable table = new ContainerTable(10);
    table.add(record("app_1", "c1"));
    table.markRunning("c1");
    table.markKilling("c1");
    assertThat(table.statusesToReport()).singleElement().returns(ContainerState.RUNNING, ContainerStatus::state);

    table.finish("c1", ExitStatus.KILLED_BY_APPMASTER, "killed", true, 9);
    assertThat(table.find("c1")).get().returns(NmContainerState.DONE, ContainerRecord::state);
    assertThat(table.liveContainersOf("app_1")).isEmpty();
    assertThat(table.applications()).containsExactly("app_1");
  }
}
