package dev.bobbin.persistence.testing;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import dev.bobbin.persistence.JournalConfig;
import dev.bobbin.persistence.JournalSchema;
import dev.bobbin.pg.EmbeddedPostgres;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * Complete ActorSystem configurations for tests that persist: the real journal (embedded H2 or
 * PostgreSQL), serialization checks on, logging through SLF4J. Override single keys with
 * {@code ConfigFactory.parseString("...").withFallback(TestJournals.embedded(dir))}.
 */
public final class TestJournals {
  /**
   * serialize-messages: every locally sent message goes through its serializer, so a command,
   * reply or event that cannot round-trip fails here rather than after a failover.
   */
  private static final Config TEST_SETTINGS = ConfigFactory.parseString("""
      pekko {
        loggers = ["org.apache.pekko.event.slf4j.Slf4jLogger"]
        logging-filter = "org.apache.pekko.event.slf4j.Slf4jLoggingFilter"
        loglevel = INFO
        actor.serialize-messages = on
        actor.allow-java-serialization = off
        coordinated-shutdown.run-by-jvm-shutdown-hook = off
      }
      """);

  private static final Duration SCHEMA_TIMEOUT = Duration.ofSeconds(30);

  private TestJournals() {}

  /** The embedded H2 journal in {@code dataDir} (for example a JUnit {@code @TempDir}). */
  public static Config embedded(Path dataDir) {
    return build(ConfigFactory.parseString("bobbin.persistence.journal = embedded"), dataDir);
  }

  /** A PostgreSQL journal on the given database. */
  public static Config postgres(String jdbcUrl, String user, String password) {
    Config pg = ConfigFactory.empty()
        .withValue("bobbin.persistence.journal", ConfigValueFactory.fromAnyRef("postgres"))
        .withValue("bobbin.persistence.postgres.url", ConfigValueFactory.fromAnyRef(jdbcUrl))
        .withValue("bobbin.persistence.postgres.user", ConfigValueFactory.fromAnyRef(user))
        .withValue("bobbin.persistence.postgres.password", ConfigValueFactory.fromAnyRef(password));
    // The data dir is unused by the postgres journal.
    return build(pg, Path.of(System.getProperty("java.io.tmpdir")));
  }

  public static Config postgres(EmbeddedPostgres.Database db) {
    return postgres(db.jdbcUrl(), db.user(), db.password());
  }

  /** A new, empty database on the JVM's shared {@link EmbeddedPostgres}. */
  public static Config freshPostgres() {
    return postgres(EmbeddedPostgres.shared().createDatabase());
  }

  /** Creates the journal tables, waiting for it; call once the ActorSystem has started. */
  public static void ensureSchema(ActorSystem<?> system) {
    try {
      JournalSchema.ensure(system).toCompletableFuture().get(SCHEMA_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("journal schema not ready: " + e.getMessage(), e);
    }
  }

  private static Config build(Config journal, Path dataDir) {
    Config root = journal.withFallback(TEST_SETTINGS).withFallback(ConfigFactory.load());
    return JournalConfig.overlay(root, dataDir).withFallback(root).resolve();
  }
}
