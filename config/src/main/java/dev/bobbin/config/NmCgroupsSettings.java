package dev.bobbin.config;

import com.typesafe.config.Config;
import java.util.Arrays;
import java.util.List;

/**
 * Whether a NodeManager places each container in cgroups of its own, {@code bobbin.nm.cgroups}
 * (YARN's cgroups resource handlers under the linux container executor), and whether those hold
 * it to its memory, {@code bobbin.nm.resource.memory.enforced}.
 *
 * @param hierarchy where under each cgroup mount the NodeManagers of a host keep their cgroups,
 *     as {@code yarn.nodemanager.linux-container-executor.cgroups.hierarchy}: relative, its
 *     segments joined by {@code /}
 * @param memoryEnforced {@code yarn.nodemanager.resource.memory.enforced}: a container's cgroup has
 *     its allocated memory as a hard limit, so the kernel, not the container monitor, enforces it
 */
public record NmCgroupsSettings(boolean enabled, String hierarchy, boolean memoryEnforced) {
  static final String KEY = "bobbin.nm.cgroups";
  static final String MEMORY_ENFORCED_KEY = "bobbin.nm.resource.memory.enforced";

  public static final NmCgroupsSettings DISABLED = new NmCgroupsSettings(false, "bobbin", true);

  public NmCgroupsSettings {
    hierarchy = checkHierarchy(hierarchy);
  }

  public static NmCgroupsSettings from(Config root) {
    Config c = root.getConfig(KEY);
    return new NmCgroupsSettings(c.getBoolean("enabled"), c.getString("hierarchy"),
        root.getBoolean(MEMORY_ENFORCED_KEY));
  }

  /** A leading {@code /} is accepted, as YARN writes the hierarchy ({@code /hadoop-yarn}). */
  private static String checkHierarchy(String h) {
    String trimmed = h.strip().replaceAll("^/+", "").replaceAll("/+$", "");
    List<String> segments = Arrays.asList(trimmed.split("/+"));
    if (trimmed.isEmpty() || segments.stream().anyMatch(s -> s.equals(".") || s.equals(".."))) {
      throw new SettingsException(KEY + ".hierarchy", "must name a directory below each cgroup mount, like bobbin or"
          + " /hadoop-yarn (no . or .. segments); was '" + h + "'");
    }
    return String.join("/", segments);
  }
}
