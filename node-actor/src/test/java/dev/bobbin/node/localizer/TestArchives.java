package dev.bobbin.node.localizer;

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

/** Archives made for tests, from alternating entry names and contents. */
public final class TestArchives {
  private TestArchives() {}

  /** Writes a tar (gzipped when asked) of name → content; content "->x" makes a symlink to x. */
  public static Path tar(Path file, boolean gzip, String... entries) throws IOException {
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

  public static Path zip(Path file, String... entries) throws IOException {
    try (ZipArchiveOutputStream zip = new ZipArchiveOutputStream(Files.newOutputStream(file))) {
      for (int i = 0; i < entries.length; i += 2) {
        zip.putArchiveEntry(new ZipArchiveEntry(entries[i]));
        zip.write(entries[i + 1].getBytes(StandardCharsets.UTF_8));
        zip.closeArchiveEntry();
      }
    }
    return file;
  }
}
