package dev.bobbin.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The journal's and the snapshot store's circuit breakers let calls through again 2 s after they opened. */
class JournalCircuitBreakerTest {
  @Test
  void bothPluginsTryAgainTwoSecondsAfterOpening() {
    for (String journal : new String[] {"embedded", "postgres"}) {
      Config root = ConfigFactory.parseString("bobbin.persistence.journal = " + journal).withFallback(ConfigFactory.load());
      Config c = JournalConfig.overlay(root, Path.of("data")).withFallback(root).resolve();
      for (String plugin : new String[] {"jdbc-journal", "jdbc-snapshot-store"}) {
        assertThat(c.getDuration(plugin + ".circuit-breaker.reset-timeout").toMillis()).as(plugin).isEqualTo(2000);
        assertThat(c.getDuration(plugin + ".circuit-breaker.call-timeout").toSeconds()).as(plugin).isEqualTo(10);
        assertThat(c.getInt(plugin + ".circuit-breaker.max-failures")).as(plugin).isEqualTo(10);
      }
    }
  }
}
