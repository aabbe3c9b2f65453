package dev.bobbin.node.localizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CacheSubdirsTest {
  private final Path cache = Path.of("/d1/node/filecache");

  @Test
  void subdirectoriesAreNumberedInBase36OneCharacterPerLevel() {
    assertThat(List.of(CacheSubdirs.relativePath(0), CacheSubdirs.relativePath(1), CacheSubdirs.relativePath(36),
        CacheSubdirs.relativePath(37), CacheSubdirs.relativePath(38), CacheSubdirs.relativePath(36 * 36 + 1)))
        .containsExactly("", "0", "z", "0/0", "0/1", "0/0/0");
    for (int n = 0; n < 3000; n++) assertThat(CacheSubdirs.number(CacheSubdirs.relativePath(n))).isEqualTo(n);
  }

  @Test
  void aFullDirectoryTakesNoCopyUntilOneOfItsCopiesGoes() {
    // 38 entries: the 36 sub-directories and 2 copies.
    var subdirs = new CacheSubdirs(38);
    List<String> taken = new ArrayList<>();
    for (int i = 0; i < 5; i++) taken.add(subdirs.take(cache));
    assertThat(taken).containsExactly("", "", "0", "0", "1");

    subdirs.released(cache, "");
    assertThat(subdirs.take(cache)).isEqualTo("1");
    assertThat(subdirs.take(cache)).isEqualTo("");
    assertThat(subdirs.take(cache)).isEqualTo("2");
  }

  @Test
  void copiesAnEarlierRunMadeAreCountedWhereTheyAre() {
    var subdirs = new CacheSubdirs(38);
    subdirs.counted(cache, "");
    subdirs.counted(cache, "");
    subdirs.counted(cache, "5");
    assertThat(subdirs.take(cache)).isEqualTo("5");
    assertThat(subdirs.take(cache)).isEqualTo("6");
    assertThat(subdirs.take(Path.of("/d2/node/filecache"))).as("another cache counts apart").isEmpty();
  }

  @Test
  void theCacheOfACopyIsAboveItsOneCharacterSubdirectories() {
    assertThat(CacheSubdirs.cacheOf(cache.resolve("0/a/abc-1"))).isEqualTo(cache);
    assertThat(CacheSubdirs.cacheOf(cache.resolve("abc-1"))).isEqualTo(cache);
    Path userCache = Path.of("/d1/node/usercache/a/filecache");
    assertThat(CacheSubdirs.cacheOf(userCache.resolve("z/abc-1"))).isEqualTo(userCache);
  }

  @Test
  void aLimitWithoutRoomForCopiesIsRefused() {
    assertThatThrownBy(() -> new CacheSubdirs(36)).isInstanceOf(IllegalArgumentException.class);
  }
}
