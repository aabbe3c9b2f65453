package dev.bobbin.node.recovery;

import static dev.bobbin.node.recovery.FileStateStoreTest.APP;
import static dev.bobbin.node.recovery.FileStateStoreTest.CID;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.config.NmRecoverySettings;
import dev.bobbin.config.SettingsException;
import dev.bobbin.node.container.ContainerRecord;
import dev.bobbin.node.container.KillReason;
import dev.bobbin.node.container.NmContainerState;
import dev.bobbin.protocol.ExitStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the node records as its containers change, read back as a restarted node would. */
class StateRecorderTest {
  static final NmRecoverySettings ON = new NmRecoverySettings(true, Optional.empty(), false, Duration.ofSeconds(1));
  @TempDir Path nodeRoot;

  private StateRecorder open() {
    return StateRecorder.open(ON, nodeRoot);
  }

  private static ContainerRecord created(String containerId) {
    return FileStateStoreTest.accepted(containerId).record();
  }

  @Test
  void aContainerIsRecordedFromAcceptanceToItsEndUnderTheNodesOwnDirectory() throws IOException {
    StateRecorder recorder = open();
    ContainerRecord c = created(CID);
    recorder.accepted(c);
    long self = ProcessHandle.current().pid();
    recorder.launched(CID, self);
    recorder.killing(CID, KillReason.BY_APPMASTER, "asked");

    StoredContainer stored = open().recovered().containers().get(0);
    assertThat(stored.state()).isEqualTo(NmContainerState.KILLING);
    assertThat(stored.pid()).isEqualTo(self);
    assertThat(stored.process().isRunning()).as("the identity of this very process").isTrue();
    assertThat(stored.killReason()).isEqualTo(KillReason.BY_APPMASTER);
    assertThat(open().recovered().applications()).containsExactly(new StoredApplication(APP, "alice", false));
    assertThat(nodeRoot.resolve("recovery/containers").resolve(CID + ".json")).exists();

    recorder.completed(c.running().finished(ExitStatus.KILLED_BY_APPMASTER, "asked", true, 2000));
    assertThat(open().recovered().containers().get(0).record().toStatus().exitStatus())
        .isEqualTo(ExitStatus.KILLED_BY_APPMASTER);
  }

  @Test
  void completedContainersAreForgottenOnceAcknowledgedAndAnEndedApplicationWithThem() throws IOException {
    StateRecorder recorder = open();
    String other = "container_1700000000000_0001_01_000003";
    recorder.accepted(created(CID));
    recorder.accepted(created(other));
    recorder.acknowledged(List.of(CID));
    assertThat(open().recovered().containers()).as("a live container stays").hasSize(2);

    recorder.completed(created(CID).running().finished(0, "", false, 2000));
    recorder.applicationEnded(APP);
    recorder.acknowledged(List.of(CID));
    assertThat(open().recovered().containers()).extracting(StoredContainer::containerId).containsExactly(other);
    assertThat(open().recovered().applications()).containsExactly(new StoredApplication(APP, "alice", true));

    recorder.completed(created(other).running().finished(1, "failed", false, 3000));
    recorder.acknowledged(List.of(other));
    assertThat(open().recovered()).isEqualTo(NmState.EMPTY);
  }

  @Test
  void aRunningApplicationIsRememberedWhenAllItsContainersAreForgotten() throws IOException {
    StateRecorder recorder = open();
    recorder.accepted(created(CID));
    recorder.completed(created(CID).running().finished(0, "", false, 2000));
    recorder.acknowledged(List.of(CID));
    assertThat(open().recovered().containers()).isEmpty();
    assertThat(open().recovered().applicationIds()).containsExactly(APP);
    assertThat(open().runningApplications()).as("named at registration, for the RM to say it ended").containsExactly(APP);
    recorder.applicationEnded(APP);
    assertThat(open().recovered()).isEqualTo(NmState.EMPTY);
  }

  @Test
  void offItRecordsNothing() throws IOException {
    StateRecorder off = StateRecorder.open(NmRecoverySettings.DISABLED, nodeRoot);
    off.accepted(created(CID));
    off.launched(CID, 1);
    assertThat(off.enabled()).isFalse();
    assertThat(nodeRoot.resolve("recovery")).doesNotExist();
  }

  @Test
  void aDirectoryThatCannotHoldTheStoreIsRefusedNamingItsSetting() throws IOException {
    Path file = Files.writeString(nodeRoot.resolve("a-file"), "");
    NmRecoverySettings there = new NmRecoverySettings(true, Optional.of(file), false, Duration.ofSeconds(1));
    assertThatThrownBy(() -> StateRecorder.open(there, nodeRoot))
        .isInstanceOf(SettingsException.class).hasMessageStartingWith("bobbin.nm.recovery.dir:");
  }
}
