package dev.bobbin.node.localizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UnpackerTest {
  @TempDir Path dir;

  /** Writes a tar (gzipped when asked) of name → content; content "->x" makes a symlink to x. */
  static Path tar(Path file, boolean gzip, String... entries) throws IOException {
    try (OutputStream raw = Files.newOutputStream(file);
         OutputStream out = gzip ? new GzipCompressorOutputStream(raw) : raw;
         TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
      for (int i = 0; i < entries.length; i += 2) {
        String content = entries[i + 1];
        if (content.startsWith("->")) {
          TarArchiveEntry e = new TarArchiveEntry(entries[i], TarArchiveEntry.LF_SYMLINK);
          e.setLinkName(content.substring(2));
          tar.putArchiveEntry(e);
        } else {
          byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
          TarArchiveEntry e = new TarArchiveEntry(entries[i]);
          e.setSize(bytes.length);
          tar.putArchiveEntry(e);
          tar.write(bytes);
        }
        tar.closeArchiveEntry();
      }
    }
    return file;
  }

  static Path zip(Path file, String... entries) throws IOException {
    try (ZipArchiveOutputStream zip = new ZipArchiveOutputStream(Files.newOutputStream(file))) {
      for (int i = 0; i < entries.length; i += 2) {
        zip.putArchiveEntry(new ZipArchiveEntry(entries[i]));
        zip.write(entries[i + 1].getBytes(StandardCharsets.UTF_8));
        zip.closeArchiveEntry();
      }
    }
    return file;
  }

  @Test
  void unpacksZipsJarsTarsAndGzippedTars() throws IOException {
    Path src = Files.createDirectories(dir.resolve("src"));
    zip(src.resolve("a.zip"), "lib/one.txt", "1");
    zip(src.resolve("a.jar"), "META-INF/MANIFEST.MF", "m");
    tar(src.resolve("a.tar"), false, "x/two.txt", "2");
    tar(src.resolve("a.tar.gz"), true, "three.txt", "3", "link", "->three.txt");
    tar(src.resolve("a.tgz"), true, "four.txt", "4");
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
    Path jar = zip(dir.resolve("p.jar"), "keep/a.class", "a", "drop/b.txt", "b");
    Unpacker.unpack(jar, "p.jar", dir.resolve("out"), "keep/.*");
    assertThat(dir.resolve("out/keep/a.class")).exists();
    assertThat(dir.resolve("out/drop/b.txt")).doesNotExist();
  }

  @Test
  void refusesEntriesOutsideTheTarget() throws IOException {
    Path zip = zip(dir.resolve("evil.zip"), "../escaped.txt", "x");
    Path tar = tar(dir.resolve("evil.tar"), false, "a/../../escaped.txt", "x");
    assertThatThrownBy(() -> Unpacker.unpack(zip, "evil.zip", dir.resolve("z"), null))
        .hasMessageContaining("has an entry ../escaped.txt outside the directory it is unpacked into");
    assertThatThrownBy(() -> Unpacker.unpack(tar, "evil.tar", dir.resolve("t"), null))
        .hasMessageContaining("outside the directory it is unpacked into");
    assertThat(dir.resolve("escaped.txt")).doesNotExist();
  }

  @Test
  void refusesLinksOutOfTheTarget() throws IOException {
    Path absolute = tar(dir.resolve("abs.tar.gz"), true, "passwd", "->/etc/passwd");
    Path relative = tar(dir.resolve("rel.tgz"), true, "sub/up", "->../../outside");
    assertThatThrownBy(() -> Unpacker.unpack(absolute, "abs.tar.gz", dir.resolve("a"), null))
        .hasMessageContaining("has a link passwd to /etc/passwd, outside the directory it is unpacked into");
    assertThatThrownBy(() -> Unpacker.unpack(relative, "rel.tgz", dir.resolve("r"), null))
        .hasMessageContaining("has a link sub/up to ../../outside");
    assertThat(dir.resolve("a/passwd")).doesNotExist();
  }
}
