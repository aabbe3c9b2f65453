package dev.bobbin.persistence;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.SettingsException;
import java.time.Duration;
import java.util.function.Function;

/** The {@code bobbin.persistence} section, checked. */
public record PersistenceSettings(
    JournalKind journal,
    Duration queryRefreshInterval,
    Duration connectionTimeout,
    int embeddedMaxConnections,
    Postgres postgres) {

  public static final String PREFIX = "bobbin.persistence";

  /** Connection to a shared PostgreSQL database. */
  public record Postgres(String url, String user, String password, int maxConnections) {
    @Override
    public String toString() {
      return "Postgres[url=" + url + ", user=" + user + ", password=***, maxConnections="
          + maxConnections + "]";
    }
  }

  /** Reads the section from {@code root}, falling back to this module's reference.conf. */
  public static PersistenceSettings from(Config root) {
    Config c = root.withFallback(ConfigFactory.defaultReference(PersistenceSettings.class.getClassLoader()));
    JournalKind journal = JournalKind.parse(key("journal"), read(c, "journal", c::getString));
    String url = read(c, "postgres.url", c::getString);
    if (journal == JournalKind.POSTGRES && !url.startsWith("jdbc:postgresql:")) {
      throw new SettingsException(key("postgres.url"), "must start with jdbc:postgresql:, was '" + url + "'");
    }
    return new PersistenceSettings(
        journal,
        positive(c, "query-refresh-interval"),
        positive(c, "connection-timeout"),
        atLeastOne(c, "embedded.max-connections"),
        new Postgres(
            url,
            read(c, "postgres.user", c::getString),
            read(c, "postgres.password", c::getString),
            atLeastOne(c, "postgres.max-connections")));
  }

  private static String key(String name) {
    return PREFIX + "." + name;
  }

  private static <T> T read(Config c, String name, Function<String, T> getter) {
    try {
      return getter.apply(key(name));
    } catch (ConfigException e) {
      throw new SettingsException(key(name), e.getMessage());
    }
  }

  private static Duration positive(Config c, String name) {
    Duration d = read(c, name, c::getDuration);
    if (d.isZero() || d.isNegative()) throw new SettingsException(key(name), "must be positive, was " + d);
    return d;
  }

  private static int atLeastOne(Config c, String name) {
    int v = read(c, name, c::getInt);
    if (v < 1) throw new SettingsException(key(name), "must be at least 1, was " + v);
    return v;
  }
}
