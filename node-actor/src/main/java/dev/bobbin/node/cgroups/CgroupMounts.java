package dev.bobbin.node.cgroups;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** The cgroup file systems mounted on this host, as {@code /proc/self/mounts} lists them. */
public final class CgroupMounts {
  /** @param options the mount's options; a v1 mount's name the controllers it holds */
  public record Mount(Path path, boolean v2, Set<String> options) {}

  private CgroupMounts() {}

  public static List<Mount> ofThisHost() throws IOException {
    return parse(Files.readString(Path.of("/proc/self/mounts")));
  }

  /** Lines of {@code device mountpoint type options dump pass}; the mount point's blanks written in octal. */
  public static List<Mount> parse(String mounts) {
    List<Mount> out = new ArrayList<>();
    for (String line : mounts.split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f.length < 4 || !(f[2].equals("cgroup") || f[2].equals("cgroup2"))) continue;
      out.add(new Mount(Path.of(unescape(f[1])), f[2].equals("cgroup2"), Set.of(f[3].split(","))));
    }
    return out;
  }

  private static String unescape(String s) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 3 < s.length() && s.substring(i + 1, i + 4).chars().allMatch(d -> d >= '0' && d <= '7')) {
        out.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
        i += 3;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
