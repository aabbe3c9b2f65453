package dev.bobbin.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * A list of hosts, as Hadoop's {@code HostsFileReader} reads {@code
 * yarn.resourcemanager.nodes.include-path} and {@code exclude-path}: names separated by white
 * space, {@code #} to the end of a line a comment. Names compare without regard to case.
 */
public final class HostsFile {
  private HostsFile() {}

  public static Set<String> read(Path file, String key) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new SettingsException(key, "cannot read the host list " + file + ": " + e);
    }
    Set<String> hosts = new LinkedHashSet<>();
    for (String line : text.split("\n", -1)) {
      int hash = line.indexOf('#');
      String content = hash < 0 ? line : line.substring(0, hash);
      for (String host : content.trim().split("\\s+")) {
        if (!host.isEmpty()) hosts.add(host.toLowerCase(Locale.ROOT));
      }
    }
    return Set.copyOf(hosts);
  }
}
