package dev.bobbin.config;

import com.typesafe.config.Config;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Who a NodeManager's containers run as: {@code bobbin.nm.container-executor} (YARN's
 * {@code yarn.nodemanager.container-executor.class}) and, for the {@code linux} executor, the rules
 * of YARN's {@code container-executor.cfg} under {@code bobbin.nm.linux-container-executor}.
 */
public record ContainerExecutorSettings(
    Kind kind, Set<String> bannedUsers, int minUserId, Set<String> allowedSystemUsers) {

  public enum Kind {
    /** Containers run as the NodeManager's own user (YARN's DefaultContainerExecutor). */
    DEFAULT,
    /** Containers run as the user who submitted them; needs a NodeManager running as root (YARN's LinuxContainerExecutor). */
    LINUX
  }

  static final String KIND_KEY = "bobbin.nm.container-executor";
  static final String LINUX_KEY = "bobbin.nm.linux-container-executor";

  public ContainerExecutorSettings {
    bannedUsers = Set.copyOf(bannedUsers);
    allowedSystemUsers = Set.copyOf(allowedSystemUsers);
  }

  public static ContainerExecutorSettings from(Config root) {
    Config linux = root.getConfig(LINUX_KEY);
    return new ContainerExecutorSettings(
        kind(root.getString(KIND_KEY)),
        names(linux, "banned-users"),
        Settings.atLeast(linux, "min-user-id", 0),
        names(linux, "allowed-system-users"));
  }

  /** The same rules with another executor. */
  public ContainerExecutorSettings withKind(Kind k) {
    return new ContainerExecutorSettings(k, bannedUsers, minUserId, allowedSystemUsers);
  }

  private static Kind kind(String value) {
    String v = value.trim();
    if (v.equals("org.apache.hadoop.yarn.server.nodemanager.DefaultContainerExecutor")) return Kind.DEFAULT;
    if (v.equals("org.apache.hadoop.yarn.server.nodemanager.LinuxContainerExecutor")) return Kind.LINUX;
    return switch (v.toLowerCase(Locale.ROOT)) {
      case "default" -> Kind.DEFAULT;
      case "linux" -> Kind.LINUX;
      default -> throw new SettingsException(KIND_KEY, "unknown container executor '" + value + "' (known: default, linux)");
    };
  }

  private static Set<String> names(Config c, String key) {
    List<String> raw = c.getStringList(key);
    Set<String> names = new LinkedHashSet<>();
    for (String n : raw) {
      if (n.isBlank()) throw new SettingsException(LINUX_KEY + "." + key, "has a blank user name");
      names.add(n.trim());
    }
    return names;
  }
}
