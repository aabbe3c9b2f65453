package dev.bobbin.node.localizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.node.container.ContainerLaunchRefused;
import dev.bobbin.protocol.LocalResource;
import dev.bobbin.protocol.LocalResource.Type;
import dev.bobbin.protocol.LocalResource.Visibility;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalizerTest {
  @TempDir Path dir;

  private LocalResource resource(String name, String content, Visibility visibility) throws IOException {
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

  @Test
  void aNodeStartedAgainCountsWhatItsCachesHoldAndDropsUnfinishedDownloads() throws IOException {
    var before = new Localizer(dir.resolve("node"), 1 << 20, Clock.systemUTC());
    before.release(before.localize("alice", "app_1", dir.resolve("app_1"), work("c1"),
        Map.of("s", resource("s.txt", "12345", Visibility.PUBLIC))));
    Path unfinished = Files.createDirectories(dir.resolve("node/filecache/abc-1.downloading"));

    var after = new Localizer(dir.resolve("node"), 1 << 20, Clock.systemUTC());
    assertThat(after.cachedBytes()).isEqualTo(5);
    assertThat(unfinished).doesNotExist();
    var shrinking = new Localizer(dir.resolve("node"), 0, Clock.systemUTC());
    shrinking.release(new Localizer.Lease(java.util.List.of()));
    assertThat(shrinking.cachedBytes()).isZero();
    try (Stream<Path> left = Files.list(dir.resolve("node/filecache"))) {
      assertThat(left).isEmpty();
    }
  }

  @Test
  void aContainerTakenBackAfterARestartKeepsItsLinkedCopiesUntilItEnds() throws IOException {
    var before = new Localizer(dir.resolve("node"), 0, Clock.systemUTC());
    before.localize("alice", "app_1", dir.resolve("app_1"), work("c1"),
        Map.of("s", resource("s.txt", "kept", Visibility.PUBLIC)));
    Path copy = Files.readSymbolicLink(work("c1").resolve("s"));

    var after = new Localizer(dir.resolve("node"), 0, Clock.systemUTC());
    var held = after.holdLinked(work("c1"));
    after.release(new Localizer.Lease(java.util.List.of()));
    assertThat(copy).hasContent("kept");
    after.release(held);
    assertThat(copy).doesNotExist();
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
