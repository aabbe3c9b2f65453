package dev.bobbin.launcher.cli;

import dev.bobbin.protocol.LocalResource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code submit --file/--archive}: each path as an APPLICATION local resource linked under its
 * file name, with the size and modification time it has now, so that a file changed before a
 * container starts is refused rather than read half-new. The NodeManagers read it from this path
 * ({@code file://}): it must be where every node sees it, a shared filesystem or this machine.
 */
final class ShippedFiles {
  private ShippedFiles() {}

  static Map<String, LocalResource> of(List<Path> files, List<Path> archives) {
    Map<String, LocalResource> out = new LinkedHashMap<>();
    add(out, files, "--file", LocalResource.Type.FILE);
    add(out, archives, "--archive", LocalResource.Type.ARCHIVE);
    return out;
  }

  private static void add(Map<String, LocalResource> out, List<Path> paths, String option, LocalResource.Type type) {
    if (paths == null) return;
    for (Path p : paths) {
      Path file = p.toAbsolutePath().normalize();
      BasicFileAttributes a;
      try {
        a = Files.readAttributes(file, BasicFileAttributes.class);
      } catch (IOException e) {
        throw new UsageException(option + " " + p + ": no such file or not readable");
      }
      if (!a.isRegularFile() || !Files.isReadable(file)) {
        throw new UsageException(option + " " + p + ": not a readable regular file");
      }
      String name = file.getFileName().toString();
      if (out.containsKey(name)) {
        throw new UsageException(option + " " + p + ": another shipped file is also named " + name);
      }
      out.put(name, LocalResource.of(file.toUri().toString(), type, LocalResource.Visibility.APPLICATION,
          a.size(), a.lastModifiedTime().toMillis()));
    }
  }
}
