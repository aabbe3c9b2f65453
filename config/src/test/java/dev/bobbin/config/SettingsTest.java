package dev.bobbin.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class SettingsTest {
  private static Config with(String hocon) {
    return ConfigFactory.parseString(hocon).withFallback(ConfigFactory.load()).resolve();
  }

  @Test
  void defaultsMirrorYarns() {
    SchedulerSettings s = SchedulerSettings.from(with(""));
    assertThat(s.maximumAllocationMb()).isEqualTo(8192);
    assertThat(s.maximumAllocationVcores()).isEqualTo(4);
    assertThat(s.minimumAllocationMb()).isEqualTo(1024);
    assertThat(s.queues()).containsExactly("default");
    assertThat(s.maxAllocationsInFlight()).isEqualTo(2000);
    assertThat(s.maxAmShare()).isEqualTo(0.5);
    RmSettings rm = RmSettings.from(with(""));
    assertThat(rm.httpPort()).isEqualTo(8088);
    assertThat(rm.amMaxAttempts()).isEqualTo(2);
    assertThat(rm.amLauncherThreads()).isEqualTo(50);
    // Hadoop 3's yarn.resourcemanager.max-completed-applications.
    assertThat(rm.maxCompletedApplications()).isEqualTo(1000);
    // YARN's yarn.nm.liveness-monitor and yarn.am.liveness-monitor expiry intervals.
    assertThat(rm.nmExpiry()).hasMinutes(10);
    assertThat(rm.amExpiry()).hasMinutes(10);
    assertThat(NmSettings.from(with("")).httpPort()).isEqualTo(8042);
    assertThat(HttpLimits.from(with("")).maxRequestBody()).isEqualTo(1024 * 1024);
    assertThat(NmSettings.from(with("bobbin.http.max-request-body = 2m")).http().maxRequestBody()).isEqualTo(2 << 20);
    // yarn.resourcemanager.rm.container-allocation.expiry-interval-ms and the key rolling intervals.
    assertThat(rm.containerAllocationExpiry()).hasMinutes(10);
    assertThat(rm.tokenKeys().containerKeyRollingInterval()).hasDays(1);
    assertThat(rm.tokenKeys().amKeyRollingInterval()).hasDays(1);
    assertThat(rm.tokenKeys().containerKeyActivationDelay()).as("1.5 times nm-expiry").hasMinutes(15);
    assertThat(rm.nodeTrust().credentialFile()).isEqualTo(Path.of("data", "node-credential"));
    assertThat(rm.nodeTrust().credentialConfigured()).isFalse();
    assertThat(rm.nodeTrust().includePath()).isEmpty();
    // yarn.resourcemanager.nodemanager-graceful-decommission-timeout-secs
    assertThat(rm.nodeTrust().gracefulDecommissionTimeout()).hasHours(1);
    // yarn.resourcemanager.node-removal-untracked.timeout-ms
    assertThat(rm.nodeTrust().nodeRemovalUntrackedTimeout()).hasSeconds(60);
  }

  @Test
  void theGracefulDecommissionTimeoutIsNotNegative() {
    assertThat(RmSettings.from(with("bobbin.rm.nodes.graceful-decommission-timeout = 90s")).nodeTrust()
        .gracefulDecommissionTimeout()).hasSeconds(90);
    assertThatThrownBy(() -> RmSettings.from(with("bobbin.rm.nodes.graceful-decommission-timeout = -1s")))
        .isInstanceOf(SettingsException.class).hasMessageContaining("bobbin.rm.nodes.graceful-decommission-timeout");
    assertThatThrownBy(() -> RmSettings.from(with("bobbin.rm.node-removal-untracked-timeout = 0s")))
        .isInstanceOf(SettingsException.class).hasMessageContaining("bobbin.rm.node-removal-untracked-timeout");
  }

  @Test
  void theRequestBodyLimitIsASizeWithinItsBounds() {
    assertThat(HttpLimits.from(with("bobbin.http.max-request-body = 64k")).maxRequestBody()).isEqualTo(65536);
    for (String bad : new String[] {"63k", "2g", "lots", "-1"}) {
      assertThatThrownBy(() -> HttpLimits.from(with("bobbin.http.max-request-body = " + bad)))
          .as(bad).isInstanceOf(SettingsException.class).hasMessageContaining("bobbin.http.max-request-body");
    }
  }

  @Test
  void theTokenSecretIsRefusedNamingIt() {
    assertThatThrownBy(() -> RmSettings.from(with("bobbin.rm.token-secret = \"c2VjcmV0c2VjcmV0c2VjcmV0\"")))
        .isInstanceOf(SettingsException.class).hasMessageStartingWith("bobbin.rm.token-secret: is not accepted");
  }

  @Test
  void keysMustRollLessOftenThanTwiceTheirActivationDelay() {
    assertThatThrownBy(() -> RmSettings.from(with("bobbin.rm.container-tokens.master-key-rolling-interval = 1800s")))
        .isInstanceOf(SettingsException.class)
        .hasMessageContaining("bobbin.rm.container-tokens.master-key-rolling-interval: must be more than twice")
        .hasMessageContaining("1.5 times bobbin.rm.nm-expiry");
    RmSettings small = RmSettings.from(with("""
        bobbin.rm.container-tokens { master-key-rolling-interval = 5s, master-key-activation-delay = 2s }
        bobbin.rm.am-rm-tokens.master-key-rolling-interval = 3s"""));
    assertThat(small.tokenKeys()).isEqualTo(
        new TokenKeySettings(java.time.Duration.ofSeconds(5), java.time.Duration.ofSeconds(2),
            java.time.Duration.ofSeconds(3)));
    assertThatThrownBy(() -> RmSettings.from(with("bobbin.rm.container-tokens.master-key-activation-delay = 0s")))
        .isInstanceOf(SettingsException.class)
        .hasMessageContaining("bobbin.rm.container-tokens.master-key-activation-delay");
    assertThatThrownBy(() -> RmSettings.from(with("bobbin.rm.am-rm-tokens.master-key-rolling-interval = soon")))
        .isInstanceOf(SettingsException.class).hasMessageContaining("bobbin.rm.am-rm-tokens.master-key-rolling-interval");
    assertThatThrownBy(() -> RmSettings.from(with("bobbin.rm.container-allocation-expiry = 0s")))
        .isInstanceOf(SettingsException.class).hasMessageContaining("bobbin.rm.container-allocation-expiry");
  }

  @Test
  void aNodeManagerWithoutACredentialIsToldWhereTheRmKeepsIt() {
    assertThatThrownBy(() -> NmSettings.from(with("")).nodeCredential())
        .isInstanceOf(SettingsException.class)
        .hasMessageContaining("bobbin.nm.node-credential-file")
        .hasMessageContaining("--node-credential FILE");
  }

  @Test
  void badValuesNameTheirKey() {
    assertThatThrownBy(() -> SchedulerSettings.from(with("bobbin.scheduler.policy = lottery")))
        .isInstanceOf(SettingsException.class).hasMessageContaining("bobbin.scheduler.policy").hasMessageContaining("lottery");
    assertThatThrownBy(() -> RmSettings.from(with("bobbin.rm.http-port = 70000")))
        .isInstanceOf(SettingsException.class).hasMessageContaining("http-port");
    assertThatThrownBy(() -> RmSettings.from(with("bobbin.rm.recovery.checkpoint-interval = 0s")))
        .isInstanceOf(SettingsException.class).hasMessageContaining("bobbin.rm.recovery.checkpoint-interval");
    assertThatThrownBy(() -> RmSettings.from(with("bobbin.rm.recovery.checkpoint-min-events = 0")))
        .isInstanceOf(SettingsException.class).hasMessageContaining("checkpoint-min-events");
    assertThatThrownBy(() -> RmSettings.from(with("bobbin.rm.max-completed-applications = -1")))
        .isInstanceOf(SettingsException.class).hasMessageContaining("bobbin.rm.max-completed-applications");
    assertThatThrownBy(() -> RmSettings.from(with("bobbin.rm.max-completed-applications = lots")))
        .isInstanceOf(SettingsException.class).hasMessageContaining("bobbin.rm.max-completed-applications");
    assertThat(RmSettings.from(with("bobbin.rm.max-completed-applications = 0")).maxCompletedApplications()).isZero();
    assertThatThrownBy(() -> RmSettings.from(with("bobbin.rm.am-launcher-threads = 0")))
        .isInstanceOf(SettingsException.class).hasMessageContaining("am-launcher-threads");
    assertThatThrownBy(() -> NmSettings.from(with("bobbin.nm.rm-addresses = []")))
        .isInstanceOf(SettingsException.class).hasMessageContaining("bobbin.nm.rm-addresses");
    assertThatThrownBy(() -> SchedulerSettings.from(with("bobbin.scheduler.minimum-allocation.memory = 9000")))
        .isInstanceOf(SettingsException.class).hasMessageContaining("minimum-allocation.memory");
    assertThatThrownBy(() -> SchedulerSettings.from(with("bobbin.scheduler.max-allocations-in-flight = 0")))
        .isInstanceOf(SettingsException.class).hasMessageContaining("max-allocations-in-flight");
    assertThatThrownBy(() -> SchedulerSettings.from(with("bobbin.scheduler.max-am-share = 1.5")))
        .isInstanceOf(SettingsException.class).hasMessageContaining("max-am-share");
  }

  @Test
  void hadoopSchedulerClassNamesAreAccepted() {
    assertThat(SchedulerPolicy.parse("k", "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fifo.FifoScheduler"))
        .isEqualTo(SchedulerPolicy.FIFO);
    assertThat(SchedulerPolicy.parse("k",
        "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler"))
        .isEqualTo(SchedulerPolicy.CAPACITY);
    assertThat(SchedulerPolicy.parse("k", "capacity")).isEqualTo(SchedulerPolicy.CAPACITY);
    assertThatThrownBy(() -> SchedulerPolicy.parse("k", "drf"))
        .isInstanceOf(SettingsException.class).hasMessageContaining("k").hasMessageContaining("capacity");
  }

  @Test
  void aMissingConfigFileIsNamed() {
    assertThatThrownBy(() -> Settings.userConfig(Path.of("/no/such/bobbin.conf")))
        .isInstanceOf(SettingsException.class).hasMessageContaining("/no/such/bobbin.conf");
  }
}
