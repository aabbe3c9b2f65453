package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.SettingsException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class FencingTimingTest {
  private static Config rm(String overrides) {
    return ConfigFactory.parseString(overrides).withFallback(ConfigFactory.parseResources("bobbin-rm.conf"))
        .withFallback(ConfigFactory.defaultReference()).resolve();
  }

  @Test
  void theShippedLeaseOutlivesFailureDetectionPlusDowning() {
    Config c = rm("");
    // 0.5 s + 2 s + 6 x 0.1 s to notice, 2 s + 1 s + 4 s to down: 10.1 s, under the 15 s lease.
    assertThat(FencingTiming.detectionPlusDowning(c)).isEqualTo(Duration.ofMillis(10_100));
    FencingTiming.check(c);
  }

  @Test
  void aSlowerResolverWithTheSameLeaseIsRefusedNamingTheLeaseSetting() {
    Config c = rm("pekko.cluster.split-brain-resolver.stable-after = 20s");
    assertThatThrownBy(() -> FencingTiming.check(c)).isInstanceOf(SettingsException.class)
        .hasMessageContaining(FencingTiming.TTL_KEY).hasMessageContaining("39100 ms");
    FencingTiming.check(rm("""
        pekko.cluster.split-brain-resolver.stable-after = 20s
        bobbin.persistence.fencing.lease.heartbeat-timeout = 45s
        """));
  }

  @Test
  void withoutFencingThereIsNothingToCheck() {
    FencingTiming.check(rm("""
        bobbin.persistence.fencing.enabled = off
        bobbin.persistence.fencing.lease.heartbeat-timeout = 3s
        """));
  }
}
