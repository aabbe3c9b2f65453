package dev.bobbin.config.security;

import dev.bobbin.config.SettingsException;
import java.util.Locale;

/** Where a user's groups come from ({@code hadoop.security.group.mapping}). */
public enum GroupsSource {
  /** {@code id -Gn USER} on the host, as Hadoop's ShellBasedUnixGroupsMapping. */
  SHELL,
  /** The groups claim of the caller's token. */
  TOKEN,
  /** The static mapping alone. */
  STATIC;

  public static GroupsSource parse(String key, String value) {
    String v = value.trim();
    if (v.endsWith("ShellBasedUnixGroupsMapping") || v.endsWith("JniBasedUnixGroupsMappingWithFallback")) return SHELL;
    try {
      return valueOf(v.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new SettingsException(key, "unknown groups source '" + value + "' (known: shell, token, static)");
    }
  }
}
