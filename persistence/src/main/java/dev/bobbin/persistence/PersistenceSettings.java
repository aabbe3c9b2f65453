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
    Postgres postgres,
    Fencing fencing) {

  public static final String PREFIX = "bobbin.persistence";
  static final String LEASE_CLASS = "dev.bobbin.persistence.fence.JournalLease";

  /** Connection to a shared PostgreSQL database. */
  public record Postgres(String url, String user, String password, int maxConnections) {
    @Override
    public String toString() {
      return "Postgres[url=" + url + ", user=" + user + ", password=***, maxConnections="
          + maxConnections + "]";
    }
  }

  /**
   * Journal writes fenced by leases in the journal's database: {@code leaseTtl} is how long a lease
   * outlives its last renewal, renewed every {@code renewInterval}; a shard or singleton that could
   * not take its lease tries again after {@code retryInterval}.
   */
  public record Fencing(boolean enabled, Duration leaseTtl, Duration renewInterval, Duration retryInterval) {}

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
            atLeastOne(c, "postgres.max-connections")),
        fencing(c));
  }

  private static Fencing fencing(Config c) {
    Duration ttl = positive(c, "fencing.lease.heartbeat-timeout");
    Duration renew = positive(c, "fencing.lease.heartbeat-interval");
    if (renew.multipliedBy(3).compareTo(ttl) > 0) {
      throw new SettingsException(key("fencing.lease.heartbeat-interval"),
          "must be at most a third of fencing.lease.heartbeat-timeout (" + ttl + "), was " + renew
              + ": a lease must survive a missed renewal or two");
    }
    String leaseClass = read(c, "fencing.lease.lease-class", c::getString);
    if (!LEASE_CLASS.equals(leaseClass)) {
      throw new SettingsException(key("fencing.lease.lease-class"),
          "must be " + LEASE_CLASS + " (journal writes are checked against its leases), was '" + leaseClass + "'");
    }
    return new Fencing(read(c, "fencing.enabled", c::getBoolean), ttl, renew, positive(c, "fencing.retry-interval"));
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
