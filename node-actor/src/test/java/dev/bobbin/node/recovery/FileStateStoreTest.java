package dev.bobbin.node.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.node.container.ContainerLayout;
import dev.bobbin.node.container.ContainerRecord;
import dev.bobbin.node.container.KillReason;
import dev.bobbin.node.container.ProcessIdentity;
import dev.bobbin.protocol.LocalResource;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.WireJson;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileStateStoreTest {
  static final String APP = "application_1700000000000_0001";
  static final String CID = "container_1700000000000_0001_01_000002";
  @TempDir Path dir;

  static StoredContainer accepted(String containerId) {
    ContainerLayout.Dirs dirs = new ContainerLayout(Path.of("/work"), "host-a:8042").dirsFor("alice", APP, containerId);
    return StoredContainer.accepted(ContainerRecord.created(containerId, APP, "alice", Resource.of(512, 1), dirs, 1000));
  }

  @Test
  void everyFieldOfAContainerAndAnApplicationComesBack() throws IOException {
    StoredContainer c = accepted(CID).launched(new ProcessIdentity(4242, 987654, "boot-1"))
        .killing(KillReason.BY_APPMASTER, "Container killed by the ApplicationMaster.");
    StoredApplication a = new StoredApplication(APP, "alice", true);
    FileStateStore store = new FileStateStore(dir);
    store.put(c);
    store.put(a);

    NmState back = new FileStateStore(dir).load();
    assertThat(back.containers()).containsExactly(c);
    assertThat(back.applications()).containsExactly(a);
    assertThat(Files.getPosixFilePermissions(dir)).isEqualTo(PosixFilePermissions.fromString("rwx------"));
    // Exactly the record's fields, in a file an operator can read.
    var file = WireJson.mapper().readTree(dir.resolve("containers").resolve(CID + ".json").toFile());
    assertThat(file.fieldNames()).toIterable().containsExactlyInAnyOrderElementsOf(
        Arrays.stream(StoredContainer.class.getRecordComponents()).map(RecordComponent::getName).toList());
    assertThat(file.path("workDir").asText()).isEqualTo(c.workDir());
  }

  @Test
  void aLocalizedResourceComesBackUntilItIsRemoved() throws IOException {
    StoredResource r = new StoredResource("0a1b2c-d3e4f5a6", LocalResource.Visibility.PRIVATE, "alice",
        "http://files/lib.tar.gz", 1_700_000_000_000L, LocalResource.Type.PATTERN, "lib/.*",
        "/data/host-a_8042/usercache/alice/filecache/0a1b2c-d3e4f5a6", "lib.tar.gz", 4096);
    FileStateStore store = new FileStateStore(dir);
    store.put(r);
    assertThat(new FileStateStore(dir).loadResources()).containsExactly(r);
    LocalizedRecords records = LocalizedRecords.open(new FileStateStore(dir));
    assertThat(records.recovered()).containsExactly(r);

    records.forgotten(r.id());
    assertThat(new FileStateStore(dir).loadResources()).isEmpty();
    assertThat(LocalizedRecords.disabled().recovered()).isEmpty();
  }

  @Test
  void aWriteReplacesTheRecordAndARemovalForgetsIt() throws IOException {
    FileStateStore store = new FileStateStore(dir);
    store.put(accepted(CID));
    StoredContainer launched = accepted(CID).launched(new ProcessIdentity(7, 8, "b"));
    store.put(launched);
    assertThat(store.load().containers()).containsExactly(launched);

    store.removeContainer(CID);
    store.removeApplication(APP);
    assertThat(store.load()).isEqualTo(NmState.EMPTY);
  }

  @Test
  void aWriteTornByACrashIsIgnoredAndTheRecordBeforeItKept() throws IOException {
    FileStateStore store = new FileStateStore(dir);
    StoredContainer before = accepted(CID);
    store.put(before);
    // A crash while the next version was being written leaves it half written under its temporary name.
    Path torn = dir.resolve("containers").resolve(CID + ".json.tmp");
    Files.writeString(torn, "{\"containerId\":\"" + CID + "\",\"state\":\"RUNN");

    assertThat(new FileStateStore(dir).load().containers()).containsExactly(before);
    assertThat(torn).doesNotExist();
  }

  @Test
  void aRecordThatCannotBeReadIsSkippedAndTheOthersLoad() throws IOException {
    FileStateStore store = new FileStateStore(dir);
    StoredContainer good = accepted(CID);
    store.put(good);
    Files.writeString(dir.resolve("containers").resolve("container_1700000000000_0001_01_000003.json"), "{\"contai");

    assertThat(store.load().containers()).containsExactly(good);
  }

  @Test
  void anIdThatIsNoFileNameIsRefused() throws IOException {
    FileStateStore store = new FileStateStore(dir);
    assertThatThrownBy(() -> store.removeContainer("../escape")).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> store.put(new StoredApplication("a/b", "alice", false))).isInstanceOf(IOException.class);
  }
}
