package dev.bobbin.node.localizer;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.apache.commons.compress.archivers.ArchiveEntry;
import org.apache.commons.compress.archivers.ArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;

/**
 * Unpacks an ARCHIVE resource by its name's ending, as YARN does: {@code .zip} and {@code .jar}
 * as zip, {@code .tar}, {@code .tar.gz} and {@code .tgz} as tar; anything else is placed as it is.
 * No entry may land outside the target, and no link may point out of it: such an archive is refused.
 */
final class Unpacker {
  private Unpacker() {}

  /** @param pattern a regular expression entry names must match to be unpacked; null for all */
  static void unpack(Path archive, String name, Path target, String pattern) throws IOException {
    Predicate<String> wanted = pattern == null ? n -> true : Pattern.compile(pattern).asMatchPredicate();
    String lower = name.toLowerCase(Locale.ROOT);
    Files.createDirectories(target);
    try (InputStream raw = new BufferedInputStream(Files.newInputStream(archive))) {
      if (lower.endsWith(".zip") || lower.endsWith(".jar")) {
        extract(new ZipArchiveInputStream(raw), target, name, wanted);
      } else if (lower.endsWith(".tar.gz") || lower.endsWith(".tgz")) {
        extract(new TarArchiveInputStream(new GzipCompressorInputStream(raw)), target, name, wanted);
      } else if (lower.endsWith(".tar")) {
        extract(new TarArchiveInputStream(raw), target, name, wanted);
      } else {
        Files.copy(raw, target.resolve(name), StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  private static void extract(ArchiveInputStream<? extends ArchiveEntry> in, Path target, String name,
      Predicate<String> wanted) throws IOException {
    Path root = target.toAbsolutePath().normalize();
    ArchiveEntry e;
    while ((e = in.getNextEntry()) != null) {
      Path out = inside(root, e.getName(), name);
      if (!e.isDirectory() && !wanted.test(e.getName())) continue;
      if (e.isDirectory()) {
        Files.createDirectories(out);
      } else if (e instanceof TarArchiveEntry t && (t.isSymbolicLink() || t.isLink())) {
        Path to = t.isSymbolicLink() ? out.getParent().resolve(t.getLinkName()).normalize()
            : inside(root, t.getLinkName(), name);
        if (!to.startsWith(root)) {
          throw new IOException("Archive " + name + " has a link " + e.getName() + " to " + t.getLinkName()
              + ", outside the directory it is unpacked into");
        }
        Files.createDirectories(out.getParent());
        if (t.isSymbolicLink()) Files.createSymbolicLink(out, Path.of(t.getLinkName()));
        else Files.createLink(out, to);
      } else if (e instanceof ZipArchiveEntry z && z.isUnixSymlink()) {
        throw new IOException("Archive " + name + " has a symbolic link " + e.getName() + "; zip links are not unpacked");
      } else {
        Files.createDirectories(out.getParent());
        Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  private static Path inside(Path root, String entry, String name) throws IOException {
    Path out = root.resolve(entry).normalize();
    if (!out.startsWith(root)) {
      throw new IOException("Archive " + name + " has an entry " + entry + " outside the directory it is unpacked into");
    }
    return out;
  }
}
