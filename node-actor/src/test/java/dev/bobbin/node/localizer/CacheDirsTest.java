package dev.bobbin.node.localizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class CacheDirsTest {
  private final Path a = Path.of("/d1/node");
  private final Path b = Path.of("/d2/node");
  private final Path c = Path.of("/d3/node");

  @Test
  void newCopiesGoToEachGoodDirectoryInTurn() throws IOException {
    var dirs = new CacheDirs(List.of(a, b, c));
    assertThat(List.of(dirs.next(), dirs.next(), dirs.next(), dirs.next())).containsExactly(a, b, c, a);
  }

  @Test
  void aFailedDirectoryTakesNoNewCopyUntilItIsGoodAgain() throws IOException {
    var dirs = new CacheDirs(List.of(a, b, c));
    assertThat(dirs.useGood(List.of(a, c))).isEqualTo(new CacheDirs.Change(List.of(b), List.of()));
    assertThat(List.of(dirs.next(), dirs.next(), dirs.next(), dirs.next())).doesNotContain(b).contains(a, c);

    assertThat(dirs.useGood(List.of(a, b, c))).isEqualTo(new CacheDirs.Change(List.of(), List.of(b)));
    assertThat(List.of(dirs.next(), dirs.next(), dirs.next())).contains(b);
  }

  @Test
  void withNoGoodDirectoryADownloadHasNowhereToGo() {
    var dirs = new CacheDirs(List.of(a));
    dirs.useGood(List.of());
    assertThatThrownBy(dirs::next).isInstanceOf(IOException.class).hasMessage("no good local directory to place it in");
  }
}
