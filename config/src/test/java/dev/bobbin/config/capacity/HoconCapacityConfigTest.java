package dev.bobbin.config.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import dev.bobbin.config.SettingsException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HoconCapacityConfigTest {
  private static final String AT = "bobbin.scheduler.capacity";

  @Test
  void theHoconFormGivesTheSameConfigurationAsTheXml() {
    assertThat(CapacitySchedulerConfig.fromHocon(Fixtures.fullHocon())).isEqualTo(Fixtures.fullXml());
  }

  @Test
  void loadReadsTheFilesTheSectionNames() {
    Config c = withFiles(ConfigFactory.empty(), "capacity-scheduler.xml", "yarn-site.xml");
    assertThat(CapacitySchedulerConfig.load(c)).isEqualTo(Fixtures.fullXml());
  }

  @Test
  void loadWithoutFilesReadsTheSection() {
    assertThat(CapacitySchedulerConfig.load(Fixtures.fullHocon())).isEqualTo(Fixtures.fullXml());
  }

  @Test
  void withACapacityFileButNoYarnSiteTheSectionGivesPreemptionAndTheAllocationBounds() {
    Config hocon =
        ConfigFactory.parseString(
            """
            bobbin.scheduler {
              minimum-allocation { memory = 512, vcores = 1 }
              maximum-allocation { memory = 16384, vcores = 8 }
              capacity {
                max-application-priority = 10
                preemption {
                  enabled = true, monitoring-interval = 1s, max-wait-before-kill = 10s
                  total-preemption-per-round = 0.2, max-ignored-over-capacity = 0.05, natural-termination-factor = 0.5
                }
              }
            }
            """);
    assertThat(CapacitySchedulerConfig.load(withFiles(hocon, "capacity-scheduler.xml", null))).isEqualTo(Fixtures.fullXml());
  }

  @Test
  void aSettingGivenByAFileMustNotBeGivenInTheSectionToo() {
    Config queues = withFiles(ConfigFactory.parseString(AT + ".queues { a { capacity = 100 } }"), "capacity-scheduler.xml", null);
    SettingsException e = catchThrowableOfType(() -> CapacitySchedulerConfig.load(queues), SettingsException.class);
    assertThat(e.key()).isEqualTo(AT + ".queues");
    assertThat(e.getMessage()).contains("give it either in " + AT + ".capacity-file or here, not both");

    Config preemption = withFiles(ConfigFactory.parseString(AT + ".preemption.enabled = true"), "capacity-scheduler.xml", "yarn-site.xml");
    e = catchThrowableOfType(() -> CapacitySchedulerConfig.load(preemption), SettingsException.class);
    assertThat(e.key()).isEqualTo(AT + ".preemption.enabled");
    assertThat(e.getMessage()).contains(AT + ".yarn-site-file");

    Config wide = withFiles(ConfigFactory.parseString(AT + ".maximum-applications = 7"), "capacity-scheduler.xml", null);
    e = catchThrowableOfType(() -> CapacitySchedulerConfig.load(wide), SettingsException.class);
    assertThat(e.key()).isEqualTo(AT + ".maximum-applications");
  }

  @Test
  void aMissingFileIsNamed() {
    Config c = ConfigFactory.empty().withValue(AT + ".capacity-file", ConfigValueFactory.fromAnyRef("/nonexistent/capacity-scheduler.xml"));
    SettingsException e = catchThrowableOfType(() -> CapacitySchedulerConfig.load(c), SettingsException.class);
    assertThat(e.key()).isEqualTo("/nonexistent/capacity-scheduler.xml");
    assertThat(e.getMessage()).contains("no such file");
  }

  @Test
  void theReferenceSectionIsHadoopsDefaultsOnceQueuesAreGiven() {
    Config reference = ConfigFactory.defaultReference();
    // Hadoop refuses a configuration without queues, and so does Bobbin.
    SettingsException e = catchThrowableOfType(() -> CapacitySchedulerConfig.load(reference), SettingsException.class);
    assertThat(e.key()).isEqualTo(AT + ".queues");
    assertThat(e.getMessage()).contains("root has no queues");

    Config user = ConfigFactory.parseString(AT + ".queues { default { capacity = 100 } }").withFallback(reference).resolve();
    CapacitySchedulerConfig c = CapacitySchedulerConfig.load(user);
    assertThat(c.schedulerWide()).isEqualTo(SchedulerWideSettings.HADOOP_DEFAULTS);
    assertThat(c.preemption()).isEqualTo(PreemptionSettings.HADOOP_DEFAULTS);
    assertThat(c.queueMappings()).isEmpty();
    assertThat(c.queueMappingsOverride()).isFalse();
    assertThat(c.warnings()).isEmpty();
    assertThat(c).isEqualTo(Fixtures.xml(Map.of("root.queues", "default", "root.default.capacity", "100")));
  }

  @Test
  void queuesWithoutRootHangOffRootInNameOrderAndNullsAreUnset() {
    CapacitySchedulerConfig c =
        Fixtures.hocon(
            """
            queues {
              b { capacity = "50", maximum-capacity = null, user-settings { "dr.who" { weight = 0.5 } } }
              a { capacity = 50.0, queues { x { capacity = 100, disable-preemption = "true" } } }
            }
            queue-mappings = "u:%user:a.x"
            """);
    assertThat(c.queues().keySet()).containsExactly("root", "root.a", "root.a.x", "root.b");
    assertThat(c.queue("b").orElseThrow().maximumCapacity()).isEqualTo(QueueCapacity.UNLIMITED);
    assertThat(c.queue("b").orElseThrow().userWeights()).isEqualTo(Map.of("dr.who", 0.5f));
    assertThat(c.queueMappings()).containsExactly(new QueueMapping(QueueMapping.Type.USER, "%user", "a.x"));
  }

  @Test
  void hoconErrorsNameTheHoconPath() {
    SettingsException e =
        catchThrowableOfType(() -> Fixtures.hocon("queues { a { capacity = 60 }, b { capacity = 30 } }"), SettingsException.class);
    assertThat(e.key()).isEqualTo(AT + ".queues");
    assertThat(e.getMessage()).contains("sum to 90");

    e = catchThrowableOfType(() -> Fixtures.hocon("queues { a { capacity = 100, wieght = 2 } }"), SettingsException.class);
    assertThat(e.key()).isEqualTo(AT + ".queues.a.wieght");
    assertThat(e.getMessage()).contains("unknown queue setting 'wieght'");

    e = catchThrowableOfType(() -> Fixtures.hocon("queues { a { capacity = 100, queues { x { capacity = lots } } } }"), SettingsException.class);
    assertThat(e.key()).isEqualTo(AT + ".queues.a.queues.x.capacity");

    e = catchThrowableOfType(() -> Fixtures.hocon("queues { a { capacity = 100 } }, maximum-aplications = 3"), SettingsException.class);
    assertThat(e.key()).isEqualTo(AT + ".maximum-aplications");

    e = catchThrowableOfType(() -> Fixtures.hocon("queues { a { capacity = 100 } }, preemption { monitoring-interval = 3000 }"), SettingsException.class);
    assertThat(e.key()).isEqualTo(AT + ".preemption.monitoring-interval");
    assertThat(e.getMessage()).contains("give a unit");

    e = catchThrowableOfType(() -> Fixtures.hocon("queues { a = 100 }"), SettingsException.class);
    assertThat(e.key()).isEqualTo(AT + ".queues.a");
    assertThat(e.getMessage()).contains("a queue must be an object");

    e = catchThrowableOfType(() -> Fixtures.hocon("queues { root { }, a { capacity = 100 } }"), SettingsException.class);
    assertThat(e.getMessage()).contains("must be the only top-level queue");

    e = catchThrowableOfType(() -> Fixtures.hocon("queues { a { capacity = 100, user-settings { alice { wieght = 2 } } } }"), SettingsException.class);
    assertThat(e.key()).isEqualTo(AT + ".queues.a.user-settings.alice.wieght");

    e = catchThrowableOfType(() -> Fixtures.hocon("queues { a { capacity = 100, state = [RUNNING] } }"), SettingsException.class);
    assertThat(e.key()).isEqualTo(AT + ".queues.a.state");
    assertThat(e.getMessage()).contains("must be a single value");
  }

  private static Config withFiles(Config c, String capacityFile, String yarnSite) {
    Config out = c.withValue(AT + ".capacity-file", ConfigValueFactory.fromAnyRef(Fixtures.resource(capacityFile).toString()));
    if (yarnSite != null) {
      out = out.withValue(AT + ".yarn-site-file", ConfigValueFactory.fromAnyRef(Fixtures.resource(yarnSite).toString()));
    }
    return out.resolve();
  }
}
