package dev.bobbin.persistence;

import dev.bobbin.config.SettingsException;
import java.util.Locale;

/** Where events and snapshots are kept: {@code bobbin.persistence.journal}. */
public enum JournalKind {
  /** An H2 file database under the data directory; one RM member, no set-up. */
  EMBEDDED,
  /** A shared PostgreSQL database; required for several RM members. */
  POSTGRES;

  public static JournalKind parse(String key, String value) {
    try {
      return valueOf(value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new SettingsException(key, "unknown journal '" + value + "' (known: embedded, postgres)");
    }
  }
}
