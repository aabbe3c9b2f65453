package dev.bobbin.node.localizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UnpackerTest {
  @TempDir Path dir;

  @Test
  void unpacksZipsJarsTarsAndGzippedTars() throws IOException {
    Path src = Files.createDirectories(dir.resolve("src"));
    TestArchives.zip(src.resolve("a.zip"), "lib/one.txt", "1");
    TestArchives.zip(src.resolve("a.jar"), "META-INF/MANIFEST.MF", "m");
    TestArchives.tar(src.resolve("a.tar"), false, "x/two.txt", "2");
    TestArchives.tar(src.resolve("a.tar.gz"), true, "three.txt", "3", "link", "->three.txt");
    TestArchives.tar(src.resolve("a.tgz"), true, "four.txt", "4");
    Unpacker.unpack(src.resolve("a.zip"), "a.zip", dir.resolve("zip"), null);
    Unpacker.unpack(src.resolve("a.jar"), "a.jar", dir.resolve("jar"), null);
    Unpacker.unpack(src.resolve("a.tar"), "a.tar", dir.resolve("tar"), null);
    Unpacker.unpack(src.resolve("a.tar.gz"), "a.tar.gz", dir.resolve("targz"), null);
    Unpacker.unpack(src.resolve("a.tgz"), "a.tgz", dir.resolve("tgz"), null);
    assertThat(dir.resolve("zip/lib/one.txt")).hasContent("1");
    assertThat(dir.resolve("jar/META-INF/MANIFEST.MF")).hasContent("m");
    assertThat(dir.resolve("tar/x/two.txt")).hasContent("2");
    assertThat(dir.resolve("targz/three.txt")).hasContent("3");
    assertThat(dir.resolve("targz/link")).isSymbolicLink().hasContent("3");
    assertThat(dir.resolve("tgz/four.txt")).hasContent("4");
  }

  @Test
  void anUnknownEndingIsPlacedAsItIs() throws IOException {
    Path file = Files.writeString(dir.resolve("data.bin"), "raw");
    Unpacker.unpack(file, "data.bin", dir.resolve("out"), null);
    assertThat(dir.resolve("out/data.bin")).hasContent("raw");
  }

  @Test
  void aPatternKeepsOnlyTheEntriesItMatches() throws IOException {
    Path jar = TestArchives.zip(dir.resolve("p.jar"), "keep/a.class", "a", "drop/b.txt", "b");
    Unpacker.unpack(jar, "p.jar", dir.resolve("out"), "keep/.*");
    assertThat(dir.resolve("out/keep/a.class")).exists();
    assertThat(dir.resolve("out/drop/b.txt")).doesNotExist();
  }

  @Test
  void refusesEntriesOutsideTheTarget() throws IOException {
    Path zip = TestArchives.zip(dir.resolve("evil.zip"), "../escaped.txt", "x");
    Path tar = TestArchives.tar(dir.resolve("evil.tar"), false, "a/../../escaped.txt", "x");
    assertThatThrownBy(() -> Unpacker.unpack(zip, "evil.zip", dir.resolve("z"), null))
        .hasMessageContaining("has an entry ../escaped.txt outside the directory it is unpacked into");
    assertThatThrownBy(() -> Unpacker.unpack(tar, "evil.tar", dir.resolve("t"), null))
        .hasMessageContaining("outside the directory it is unpacked into");
    assertThat(dir.resolve("escaped.txt")).doesNotExist();
  }

  @Test
  void refusesLinksOutOfTheTarget() throws IOException {
    Path absolute = TestArchives.tar(dir.resolve("abs.tar.gz"), true, "passwd", "->/etc/passwd");
    Path relative = TestArchives.tar(dir.resolve("rel.tgz"), true, "sub/up", "->../../outside");
    assertThatThrownBy(() -> Unpacker.unpack(absolute, "abs.tar.gz", dir.resolve("a"), null))
        .hasMessageContaining("has a link passwd to /etc/passwd, outside the directory it is unpacked into");
    assertThatThrownBy(() -> Unpacker.unpack(relative, "rel.tgz", dir.resolve("r"), null))
        .hasMessageContaining("has a link sub/up to ../../outside");
    assertThat(dir.resolve("a/passwd")).doesNotExist();
  }
}
