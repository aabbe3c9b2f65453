package dev.bobbin.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.SettingsException;
import dev.bobbin.persistence.fence.FencedJournalDao;
import dev.bobbin.persistence.fence.JournalLease;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class JournalConfigTest {
  private static final String DB = "pekko-persistence-jdbc.shared-databases.slick.";

  private static Config withJournal(String hocon, Path dataDir) {
    Config root = ConfigFactory.parseString(hocon).withFallback(ConfigFactory.load());
    return JournalConfig.overlay(root, dataDir).withFallback(root).resolve();
  }

  @Test
  void embeddedIsTheDefaultAndLivesUnderTheAbsoluteDataDir() {
    Config c = withJournal("", Path.of("relative/data"));
    String url = c.getString(DB + "db.url");
    assertThat(url).startsWith("jdbc:h2:file:" + Path.of("relative/data/journal/bobbin").toAbsolutePath())
        .contains(";WRITE_DELAY=0", ";FILE_LOCK=FS", ";DB_CLOSE_ON_EXIT=FALSE");
    assertThat(c.getString(DB + "profile")).isEqualTo("slick.jdbc.H2Profile$");
    assertThat(c.getInt(DB + "db.maxConnections")).isEqualTo(4);
    assertThat(c.getInt("jdbc-journal.parallelism")).isEqualTo(1);
    assertThat(c.getString("jdbc-journal.replay-filter.mode")).isEqualTo("off");
    assertThat(c.getString("jdbc-read-journal.dao")).isEqualTo(TagRangeReadJournalDao.class.getName());
    assertThat(c.getString("pekko.persistence.journal.plugin")).isEqualTo("jdbc-journal");
    assertThat(c.getString("pekko.persistence.snapshot-store.plugin")).isEqualTo("jdbc-snapshot-store");
    for (String plugin : new String[] {"jdbc-journal", "jdbc-snapshot-store", "jdbc-read-journal"}) {
      assertThat(c.getString(plugin + ".use-shared-db")).isEqualTo("slick");
    }
    assertThat(c.getString("pekko.projection.jdbc.dialect")).isEqualTo("h2-dialect");
    assertThat(c.getInt("pekko.projection.jdbc.blocking-jdbc-dispatcher.thread-pool-executor.fixed-pool-size"))
        .isEqualTo(4);
  }

  @Test
  void postgresTakesItsConnectionFromTheSettings() {
    Config c = withJournal("""
        bobbin.persistence {
          journal = postgres
          query-refresh-interval = 250ms
          postgres { url = "jdbc:postgresql://db.example:5432/rm", user = rm, password = s3cret, max-connections = 7 }
        }
        """, Path.of("/unused"));
    assertThat(c.getString(DB + "profile")).isEqualTo("slick.jdbc.PostgresProfile$");
    assertThat(c.getString(DB + "db.url")).isEqualTo("jdbc:postgresql://db.example:5432/rm");
    assertThat(c.getString(DB + "db.user")).isEqualTo("rm");
    assertThat(c.getString(DB + "db.password")).isEqualTo("s3cret");
    assertThat(c.getInt(DB + "db.maxConnections")).isEqualTo(7);
    assertThat(c.getInt(DB + "db.numThreads")).isEqualTo(7);
    assertThat(c.getString("pekko.projection.jdbc.dialect")).isEqualTo("postgres-dialect");
    assertThat(c.getInt("pekko.projection.jdbc.blocking-jdbc-dispatcher.thread-pool-executor.fixed-pool-size"))
        .isEqualTo(7);
    assertThat(c.getString("jdbc-journal.replay-filter.mode")).isEqualTo("off");
    assertThat(c.getString("jdbc-read-journal.dao")).isEqualTo(TagRangeReadJournalDao.class.getName());
    assertThat(c.getDuration("jdbc-read-journal.refresh-interval").toMillis()).isEqualTo(250);
    assertThat(c.getDuration("jdbc-read-journal.journal-sequence-retrieval.query-delay").toMillis()).isEqualTo(250);
    assertThat(c.getDuration("jdbc-read-journal.journal-sequence-retrieval.ask-timeout").toSeconds()).isEqualTo(10);
  }

  @Test
  void anUnknownJournalIsRejectedNamingTheKey() {
    assertThatThrownBy(() -> withJournal("bobbin.persistence.journal = cassandra", Path.of("d")))
        .isInstanceOf(SettingsException.class)
        .hasMessageContaining("bobbin.persistence.journal")
        .hasMessageContaining("cassandra");
  }

  @Test
  void badValuesAreRejectedNamingTheKey() {
    assertThatThrownBy(() -> withJournal("bobbin.persistence.postgres.max-connections = 0", Path.of("d")))
        .isInstanceOf(SettingsException.class)
        .hasMessageContaining("bobbin.persistence.postgres.max-connections");
    assertThatThrownBy(() -> withJournal("bobbin.persistence.query-refresh-interval = soon", Path.of("d")))
        .isInstanceOf(SettingsException.class)
        .hasMessageContaining("bobbin.persistence.query-refresh-interval");
    assertThatThrownBy(() -> withJournal(
        "bobbin.persistence { journal = postgres, postgres.url = \"jdbc:mysql://x/y\" }", Path.of("d")))
        .isInstanceOf(SettingsException.class)
        .hasMessageContaining("bobbin.persistence.postgres.url");
  }

  @Test
  void fencedWritesAndLeasesForShardsAndSingletonsAreOnByDefault() {
    Config c = withJournal("", Path.of("d"));
    assertThat(c.getString("jdbc-journal.dao")).isEqualTo(FencedJournalDao.class.getName());
    for (String owner : new String[] {"pekko.cluster.sharding", "pekko.cluster.singleton"}) {
      assertThat(c.getString(owner + ".use-lease")).isEqualTo("bobbin.persistence.fencing.lease");
      assertThat(c.getDuration(owner + ".lease-retry-interval")).isEqualTo(Duration.ofMillis(500));
    }
    assertThat(c.getString("bobbin.persistence.fencing.lease.lease-class")).isEqualTo(JournalLease.class.getName());

    Config off = withJournal("bobbin.persistence.fencing.enabled = off", Path.of("d"));
    assertThat(off.hasPath("jdbc-journal.dao")).as("pekko-persistence-jdbc's own DAO").isTrue();
    assertThat(off.getString("jdbc-journal.dao")).isNotEqualTo(FencedJournalDao.class.getName());
    assertThat(off.getString("pekko.cluster.sharding.use-lease")).isEmpty();
  }

  @Test
  void fencingSettingsThatCannotWorkAreRejectedNamingTheKey() {
    assertThatThrownBy(() -> withJournal("bobbin.persistence.fencing.lease.heartbeat-interval = 6s", Path.of("d")))
        .isInstanceOf(SettingsException.class)
        .hasMessageContaining("bobbin.persistence.fencing.lease.heartbeat-interval")
        .hasMessageContaining("a third of");
    assertThatThrownBy(() -> withJournal(
        "bobbin.persistence.fencing.lease.lease-class = \"com.example.OtherLease\"", Path.of("d")))
        .isInstanceOf(SettingsException.class)
        .hasMessageContaining("bobbin.persistence.fencing.lease.lease-class");
    assertThatThrownBy(() -> withJournal("bobbin.persistence.fencing.retry-interval = 0s", Path.of("d")))
        .isInstanceOf(SettingsException.class)
        .hasMessageContaining("bobbin.persistence.fencing.retry-interval");
  }

  @Test
  void thePasswordStaysOutOfLogs() {
    Config root = ConfigFactory.parseString("bobbin.persistence.postgres.password = s3cret")
        .withFallback(ConfigFactory.load());
    assertThat(PersistenceSettings.from(root).toString()).doesNotContain("s3cret");
  }
}
