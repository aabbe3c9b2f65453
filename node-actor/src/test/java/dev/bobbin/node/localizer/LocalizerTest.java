package dev.bobbin.node.localizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.node.container.ContainerLaunchRefused;
import dev.bobbin.node.recovery.FileStateStore;
import dev.bobbin.node.recovery.LocalizedRecords;
import dev.bobbin.protocol.LocalResource;
import dev.bobbin.protocol.LocalResource.Type;
import dev.bobbin.protocol.LocalResource.Visibility;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalizerTest {
  @TempDir Path dir;

  private LocalResource resource(String name, String content, Visibility visibility) throws IOException {
    // A PUBLIC source must be readable by every user.
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path file = Files.writeString(dir.resolve(name), content);
    return LocalResource.of(file.toUri().toString(), Type.FILE, visibility, Files.size(file),
        Files.getLastModifiedTime(file).toMillis());
  }

  private Path work(String container) {
    return dir.resolve("work").resolve(container);
  }

  @Test
  void aPublicCopyIsSharedAndCountedWhileApplicationCopiesAreNot() throws IOException {
    var localizer = new Localizer(dir.resolve("node"), 1 << 20, Clock.systemUTC());
    var shared = resource("shared.txt", "0123456789", Visibility.PUBLIC);
    var own = resource("own.txt", "abc", Visibility.APPLICATION);
    var first = localizer.localize("alice", "app_1", dir.resolve("app_1"), work("c1"), Map.of("s", shared, "o", own));
    var second = localizer.localize("bob", "app_2", dir.resolve("app_2"), work("c2"), Map.of("s", shared));

    assertThat(work("c1").resolve("s")).isSymbolicLink().hasContent("0123456789");
    assertThat(work("c1").resolve("o")).hasContent("abc");
    assertThat(Files.readSymbolicLink(work("c1").resolve("s"))).isEqualTo(Files.readSymbolicLink(work("c2").resolve("s")));
    assertThat(Files.readSymbolicLink(work("c1").resolve("o"))).startsWith(dir.resolve("app_1").resolve("filecache"));
    assertThat(first.held()).hasSize(1);
    assertThat(localizer.cachedBytes()).isEqualTo(10);
    localizer.release(first);
    localizer.release(second);
  }

  @Test
  void aCopyInUseOutlivesTheTargetAndGoesOnceReleased() throws IOException {
    var localizer = new Localizer(dir.resolve("node"), 0, Clock.systemUTC());
    var lease = localizer.localize("alice", "app_1", dir.resolve("app_1"), work("c1"),
        Map.of("s", resource("s.txt", "data", Visibility.PRIVATE)));
    Path copy = Files.readSymbolicLink(work("c1").resolve("s"));
    assertThat(copy).startsWith(dir.resolve("node/usercache/alice/filecache")).exists();

    localizer.release(lease);
    assertThat(copy).doesNotExist();
    assertThat(localizer.cachedBytes()).isZero();
  }

  private LocalizedRecords records() throws IOException {
    return LocalizedRecords.open(new FileStateStore(dir.resolve("store")));
  }

  private Localizer recording(long targetBytes) throws IOException {
    return new Localizer(List.of(dir.resolve("node")), targetBytes, Clock.systemUTC(), records());
  }

  @Test
  void aNodeStartedAgainWithItsStateStoreCountsWhatItsCachesHoldAndDropsUnfinishedDownloads() throws IOException {
    var before = recording(1 << 20);
    before.release(before.localize("alice", "app_1", dir.resolve("app_1"), work("c1"),
        Map.of("s", resource("s.txt", "12345", Visibility.PUBLIC))));
    Path unfinished = Files.createDirectories(dir.resolve("node/filecache/abc-1.downloading"));
    Path unrecorded = Files.createDirectories(dir.resolve("node/usercache/alice/filecache/def-2"));

    var after = recording(1 << 20);
    assertThat(after.cachedBytes()).isEqualTo(5);
    assertThat(unfinished).doesNotExist();
    assertThat(unrecorded).doesNotExist();
    var shrinking = recording(0);
    shrinking.release(new Localizer.Lease(List.of()));
    assertThat(shrinking.cachedBytes()).isZero();
    try (Stream<Path> left = Files.list(dir.resolve("node/filecache"))) {
      assertThat(left).isEmpty();
    }
    assertThat(records().recovered()).isEmpty();
  }

  @Test
  void withoutAStateStoreWhatAnEarlierRunCachedIsDeletedAtStart() throws IOException {
    var before = new Localizer(dir.resolve("node"), 1 << 20, Clock.systemUTC());
    before.release(before.localize("alice", "app_1", dir.resolve("app_1"), work("c1"),
        Map.of("s", resource("s.txt", "12345", Visibility.PUBLIC), "p", resource("p.txt", "678", Visibility.PRIVATE))));

    var after = new Localizer(dir.resolve("node"), 1 << 20, Clock.systemUTC());
    assertThat(after.cachedBytes()).isZero();
    try (Stream<Path> left = Stream.concat(Files.list(dir.resolve("node/filecache")),
        Files.list(dir.resolve("node/usercache/alice/filecache")))) {
      assertThat(left).isEmpty();
    }
  }

  @Test
  void aRestartedNodeUsesItsRecordedCopiesWithoutDownloadingThemAgain() throws IOException {
    var shared = resource("s.txt", "public", Visibility.PUBLIC);
    var own = resource("p.txt", "private", Visibility.PRIVATE);
    var before = recording(1 << 20);
    before.release(before.localize("alice", "app_1", dir.resolve("app_1"), work("c1"), Map.of("s", shared, "p", own)));
    Path sharedCopy = Files.readSymbolicLink(work("c1").resolve("s"));
    Path ownCopy = Files.readSymbolicLink(work("c1").resolve("p"));
    // Gone at the source: only the recorded copies can serve them now.
    Files.delete(dir.resolve("s.txt"));
    Files.delete(dir.resolve("p.txt"));

    var after = recording(1 << 20);
    after.release(after.localize("alice", "app_2", dir.resolve("app_2"), work("c2"), Map.of("s", shared, "p", own)));
    assertThat(Files.readSymbolicLink(work("c2").resolve("s"))).isEqualTo(sharedCopy);
    assertThat(Files.readSymbolicLink(work("c2").resolve("p"))).isEqualTo(ownCopy);
    assertThat(after.cachedBytes()).isEqualTo("public".length() + "private".length());
    // Another user's PRIVATE copy is not theirs.
    assertThatThrownBy(() -> after.localize("bob", "app_3", dir.resolve("app_3"), work("c3"), Map.of("p", own)))
        .isInstanceOf(ContainerLaunchRefused.class).hasMessageContaining("failed to localize");
  }

  @Test
  void recoveredCopiesCountTowardsTheTargetAndAreEvictedFirstWhenLeastRecentlyUsed() throws IOException {
    var before = recording(1 << 20);
    before.release(before.localize("alice", "app_1", dir.resolve("app_1"), work("c1"),
        Map.of("old", resource("old.txt", "0123456789", Visibility.PUBLIC))));
    Path oldCopy = Files.readSymbolicLink(work("c1").resolve("old")).getParent();
    Files.setLastModifiedTime(oldCopy, java.nio.file.attribute.FileTime.fromMillis(1_000));

    var after = recording(12);
    assertThat(after.cachedBytes()).isEqualTo(10);
    after.release(after.localize("alice", "app_2", dir.resolve("app_2"), work("c2"),
        Map.of("new", resource("new.txt", "abcde", Visibility.PUBLIC))));
    assertThat(oldCopy).doesNotExist();
    assertThat(after.cachedBytes()).isEqualTo(5);
    assertThat(records().recovered()).hasSize(1);
  }

  @Test
  void aContainerTakenBackAfterARestartKeepsItsLinkedCopiesUntilItEnds() throws IOException {
    var before = recording(0);
    before.localize("alice", "app_1", dir.resolve("app_1"), work("c1"),
        Map.of("s", resource("s.txt", "kept", Visibility.PUBLIC)));
    Path copy = Files.readSymbolicLink(work("c1").resolve("s"));

    var after = recording(0);
    var held = after.holdLinked(work("c1"));
    after.release(new Localizer.Lease(List.of()));
    assertThat(copy).hasContent("kept");
    after.release(held);
    assertThat(copy).doesNotExist();
  }

  @Test
  void copiesSpreadOverTheLocalDirectoriesAndOnesOnAFailedDirectoryAreDownloadedAgainAndDeletedOnceItIsGood() throws IOException {
    Path d1 = dir.resolve("d1/node");
    Path d2 = dir.resolve("d2/node");
    var localizer = new Localizer(List.of(d1, d2), 1 << 20, Clock.systemUTC(), LocalizedRecords.disabled());
    var first = resource("a.txt", "a", Visibility.PUBLIC);
    var second = resource("b.txt", "b", Visibility.PRIVATE);
    localizer.release(localizer.localize("alice", "app_1", dir.resolve("app_1"), work("c1"), Map.of("a", first)));
    localizer.release(localizer.localize("alice", "app_1", dir.resolve("app_1"), work("c2"), Map.of("b", second)));
    Path a = Files.readSymbolicLink(work("c1").resolve("a"));
    Path b = Files.readSymbolicLink(work("c2").resolve("b"));
    assertThat(List.of(a.startsWith(d1), b.startsWith(d1))).containsExactlyInAnyOrder(true, false);
    Path onD1 = a.startsWith(d1) ? a : b;

    assertThat(localizer.useDisks(List.of(d2))).isEmpty();
    assertThat(localizer.cachedBytes()).isEqualTo(1);
    localizer.release(localizer.localize("alice", "app_1", dir.resolve("app_1"), work("c3"),
        Map.of("a", first, "b", second)));
    assertThat(Files.readSymbolicLink(work("c3").resolve("a"))).startsWith(d2);
    assertThat(Files.readSymbolicLink(work("c3").resolve("b"))).startsWith(d2);
    assertThat(onD1).as("the failed directory is left as it is").exists();
    assertThat(localizer.cachedBytes()).isEqualTo(2);
    assertThat(localizer.useDisks(List.of(d1, d2))).as("good again: what was forgotten there goes").containsExactly(onD1.getParent());
    assertThat(localizer.useDisks(List.of(d1, d2))).isEmpty();
  }

  @Test
  void aCopyDeletedFromTheCacheIsLocalizedAgain() throws IOException {
    var localizer = new Localizer(dir.resolve("node"), 1 << 20, Clock.systemUTC());
    var shared = resource("s.txt", "again", Visibility.PUBLIC);
    var own = resource("o.txt", "app", Visibility.APPLICATION);
    localizer.release(localizer.localize("alice", "app_1", dir.resolve("app_1"), work("c1"), Map.of("s", shared, "o", own)));
    Path gone = Files.readSymbolicLink(work("c1").resolve("s"));
    Files.delete(gone);
    Files.delete(Files.readSymbolicLink(work("c1").resolve("o")));

    localizer.release(localizer.localize("alice", "app_1", dir.resolve("app_1"), work("c2"), Map.of("s", shared, "o", own)));
    assertThat(work("c2").resolve("s")).hasContent("again");
    assertThat(work("c2").resolve("o")).hasContent("app");
    assertThat(Files.readSymbolicLink(work("c2").resolve("s"))).isNotEqualTo(gone);
    assertThat(gone.getParent()).doesNotExist();
    assertThat(localizer.cachedBytes()).isEqualTo("again".length());
  }

  @Test
  void aFullCacheDirectoryOverflowsIntoSubdirectoriesThatARestartedNodeFindsAgain() throws IOException {
    // 38 entries per directory: the 36 possible sub-directories and 2 copies.
    var before = new Localizer(List.of(dir.resolve("node")), 1 << 20, 38, Clock.systemUTC(), records());
    List<Path> copies = new java.util.ArrayList<>();
    Map<String, LocalResource> resources = new java.util.HashMap<>();
    for (String name : List.of("a", "b", "c")) {
      resources.put(name, resource(name + ".txt", name, Visibility.PUBLIC));
      before.release(before.localize("alice", "app_1", dir.resolve("app_1"), work(name),
          Map.of(name, resources.get(name))));
      copies.add(Files.readSymbolicLink(work(name).resolve(name)).getParent());
    }
    Path filecache = dir.resolve("node/filecache");
    assertThat(copies.stream().map(c -> filecache.relativize(c.getParent()).toString()).toList())
        .containsExactly("", "", "0");

    var after = new Localizer(List.of(dir.resolve("node")), 1 << 20, 38, Clock.systemUTC(), records());
    assertThat(after.cachedBytes()).isEqualTo(3);
    after.release(after.localize("alice", "app_2", dir.resolve("app_2"), work("again"),
        Map.of("c", resources.get("c"))));
    assertThat(Files.readSymbolicLink(work("again").resolve("c")).getParent()).isEqualTo(copies.get(2));
    after.release(after.localize("alice", "app_2", dir.resolve("app_2"), work("d"),
        Map.of("d", resource("d.txt", "d", Visibility.PRIVATE))));
    assertThat(after.cachedBytes()).isEqualTo(4);
  }

  @Test
  void aUserNameNeverLeadsAPrivateCopyOutOfTheUserCaches() throws IOException {
    var localizer = new Localizer(dir.resolve("node"), 1 << 20, Clock.systemUTC());
    localizer.localize("../../escaped", "app_1", dir.resolve("app_1"), work("c1"),
        Map.of("p", resource("p.txt", "mine", Visibility.PRIVATE)));
    assertThat(Files.readSymbolicLink(work("c1").resolve("p"))).startsWith(dir.resolve("node/usercache/.._.._escaped"));
  }

  @Test
  void aPublicResourceMustBeReadableByEveryUserAtItsSource() throws IOException {
    var hidden = resource("hidden.txt", "secret", Visibility.PUBLIC);
    Files.setPosixFilePermissions(dir.resolve("hidden.txt"), PosixFilePermissions.fromString("rw-r-----"));
    var localizer = new Localizer(dir.resolve("node"), 1 << 20, Clock.systemUTC());
    assertThatThrownBy(() -> localizer.localize("alice", "app_1", dir.resolve("app_1"), work("c1"),
        Map.of("h", hidden)))
        .isInstanceOf(ContainerLaunchRefused.class)
        .hasMessage("Resource " + hidden.resource() + " (h) failed to localize: Resource " + hidden.resource()
            + " is not publicly accessible and as such cannot be part of the public cache.");

    Files.setPosixFilePermissions(dir.resolve("hidden.txt"), PosixFilePermissions.fromString("rw-r--r--"));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-x---"));
    assertThatThrownBy(() -> localizer.localize("alice", "app_1", dir.resolve("app_1"), work("c2"),
        Map.of("h", hidden))).hasMessageContaining("is not publicly accessible");
    var asPrivate = LocalResource.of(hidden.resource(), Type.FILE, Visibility.PRIVATE, hidden.size(), hidden.timestamp());
    localizer.localize("alice", "app_1", dir.resolve("app_1"), work("c3"), Map.of("h", asPrivate));
    assertThat(work("c3").resolve("h")).hasContent("secret");
  }

  @Test
  void aFailedDownloadNamesTheResourceAndLeavesNothing() throws IOException {
    var localizer = new Localizer(dir.resolve("node"), 1 << 20, Clock.systemUTC());
    var missing = LocalResource.of(dir.resolve("gone.jar").toUri().toString(), Type.FILE, Visibility.PUBLIC, 3, 4);
    assertThatThrownBy(() -> localizer.localize("alice", "app_1", dir.resolve("app_1"), work("c1"),
        Map.of("gone.jar", missing)))
        .isInstanceOf(ContainerLaunchRefused.class)
        .hasMessageStartingWith("Resource " + missing.resource() + " (gone.jar) failed to localize: ");
    try (Stream<Path> left = Files.list(dir.resolve("node/filecache"))) {
      assertThat(left).isEmpty();
    }
  }
}
