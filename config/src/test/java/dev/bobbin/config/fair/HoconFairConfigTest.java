package dev.bobbin.config.fair;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.SettingsException;
import dev.bobbin.config.fair.PlacementRule.Kind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class HoconFairConfigTest {
  private static final String AT = "bobbin.scheduler.fair";

  @Test
  void theHoconFormGivesTheSameConfigurationAsTheXml() {
    assertThat(FairSchedulerConfig.fromHocon(Fixtures.fullHocon())).isEqualTo(Fixtures.fullXml());
  }

  @Test
  void globalSettings() {
    FairGlobalSettings g = FairGlobalSettings.from(Fixtures.fullHocon());
    assertThat(g)
        .isEqualTo(new FairGlobalSettings(null, true, 0.7, Duration.ofSeconds(10), Duration.ofMillis(250), false, false,
            0.5, 0.25));
  }

  @Test
  void globalSettingsDefaultToHadoops() {
    FairGlobalSettings g = FairGlobalSettings.from(ConfigFactory.empty());
    assertThat(g).isEqualTo(FairGlobalSettings.HADOOP_DEFAULTS);
    assertThat(g.preemptionEnabled()).isFalse();
    assertThat(g.preemptionUtilizationThreshold()).isEqualTo(0.8);
    assertThat(g.waitTimeBeforeKill()).isEqualTo(Duration.ofMillis(15_000));
    assertThat(g.updateInterval()).isEqualTo(Duration.ofMillis(500));
    assertThat(g.userAsDefaultQueue()).isTrue();
    assertThat(g.allowUndeclaredPools()).isTrue();
    assertThat(g.allocationFile()).isNull();
    assertThat(g.localityThresholdNode()).as("no delay scheduling").isEqualTo(-1);
    assertThat(g.localityThresholdRack()).isEqualTo(-1);
  }

  @Test
  void aNegativeLocalityThresholdMeansNoDelayAsInHadoop() {
    var root = ConfigFactory.parseString(AT + " { locality-threshold-node = -0.5, locality-threshold-rack = 0 }");
    FairGlobalSettings g = FairGlobalSettings.from(root);
    assertThat(g.localityThresholdNode()).isEqualTo(-0.5);
    assertThat(g.localityThresholdRack()).isZero();
  }

  @Test
  void theProposedReferenceSectionIsHadoopsDefaults() {
    var reference = ConfigFactory.parseFile(Fixtures.resource("reference-section.conf").toFile());
    assertThat(FairGlobalSettings.from(reference.resolve())).isEqualTo(FairGlobalSettings.HADOOP_DEFAULTS);
    assertThat(FairSchedulerConfig.load(reference.resolve())).isEqualTo(FairSchedulerConfig.minimal());
    // A user's queues and defaults layer over it as over any reference.conf.
    var user =
        ConfigFactory.parseString(AT + " { defaults.queue-max-apps = 7, queues { a { weight = 2 } } }")
            .withFallback(reference)
            .resolve();
    FairSchedulerConfig c = FairSchedulerConfig.load(user);
    assertThat(c.defaults().queueMaxAppsDefault()).isEqualTo(7);
    assertThat(c.defaults().userMaxAppsDefault()).isEqualTo(FairDefaults.UNLIMITED_APPS);
    assertThat(c.queue("a").orElseThrow().weight()).isEqualTo(2.0);
  }

  @Test
  void anEmptySectionIsRootAlone() {
    assertThat(FairSchedulerConfig.fromHocon(ConfigFactory.empty())).isEqualTo(FairSchedulerConfig.minimal());
    assertThat(Fixtures.hocon("queues {}, users {}")).isEqualTo(FairSchedulerConfig.minimal());
  }

  @Test
  void queuesWithoutRootHangOffRootAndNullsAreUnset() {
    FairSchedulerConfig c =
        Fixtures.hocon(
            """
            queues {
              b { weight = "2.5", max-running-apps = null }
              a { queues { x { allow-preemption-from = "false" } } }
            }
            placement-rules = [ { name = primary-group, create = "false" }, { name = REJECT } ]
            """);
    assertThat(c.queues().keySet()).containsExactly("root", "root.a", "root.a.x", "root.b");
    assertThat(c.queue("b").orElseThrow().weight()).isEqualTo(2.5);
    assertThat(c.queue("b").orElseThrow().maxRunningApps()).isNull();
    assertThat(c.queue("a.x").orElseThrow().allowPreemptionFrom()).isFalse();
    assertThat(c.placementPolicy().rules())
        .containsExactly(PlacementRule.of(Kind.PRIMARY_GROUP, false), PlacementRule.of(Kind.REJECT, true));
  }

  @Test
  void loadReadsTheAllocationFileWhenOneIsNamed() {
    Path xml = Fixtures.resource("fair-scheduler.xml");
    FairSchedulerConfig c =
        FairSchedulerConfig.load(ConfigFactory.parseString(AT + ".allocation-file = \"" + xml + "\"").resolve());
    assertThat(c).isEqualTo(Fixtures.fullXml());
    assertThat(FairSchedulerConfig.load(Fixtures.fullHocon())).isEqualTo(Fixtures.fullXml());
  }

  @Test
  void loadRefusesQueuesInBothPlaces() {
    SettingsException e =
        catchThrowableOfType(SettingsException.class, () ->
                FairSchedulerConfig.load(
                    ConfigFactory.parseString(AT + " { allocation-file = \"x.xml\", queues { a {} } }")));
    assertThat(e.key()).isEqualTo(AT + ".queues");
    assertThat(e.getMessage()).contains("not both");
  }

  static Stream<Arguments> broken() {
    String q = AT + ".queues";
    return Stream.of(
        arguments("queues { a { wieght = 2 } }", q + ".a.wieght", "unknown setting 'wieght'"),
        arguments("queues { a { weight = abc } }", q + ".a.weight", "not a number: 'abc'"),
        arguments("queues { a { weight = [1] } }", q + ".a.weight", "not a number"),
        arguments("queues { a { max-running-apps = 2.5 } }", q + ".a.max-running-apps", "not a whole number"),
        arguments("queues { a { min-resources = \"50%\" } }", q + ".a.min-resources", "must be an absolute amount"),
        arguments("queues { a { max-resources = 1024 } }", q + ".a.max-resources", "must be a string"),
        arguments("queues { a { scheduling-policy = lottery } }", q + ".a.scheduling-policy", "scheduling-policy must be fair, drf or fifo"),
        arguments("queues { a { fair-share-preemption-timeout = 30 } }", q + ".a.fair-share-preemption-timeout", "give a unit, e.g. 30s"),
        arguments("queues { a { min-share-preemption-timeout = soon } }", q + ".a.min-share-preemption-timeout", "not a duration"),
        arguments("queues { a { allow-preemption-from = maybe } }", q + ".a.allow-preemption-from", "not true or false: 'maybe'"),
        arguments("queues { a { type = branch } }", q + ".a.type", "type must be parent or leaf"),
        arguments("queues { a { type = leaf, queues { b {} } } }", q + ".a.type", "declared a leaf but has child queues"),
        arguments("queues { a { max-am-share = 0.3, queues { b {} } } }", q + ".a.max-am-share", "max-am-share on a parent queue"),
        arguments("queues { a { scheduling-policy = fifo, queues { b {} } } }", q + ".a.scheduling-policy", "fifo is for leaf queues only"),
        arguments("queues { a { queues { b { scheduling-policy = drf } } } }", q + ".a.queues.b.scheduling-policy", "under a parent that uses fair"),
        arguments("queues { root { max-container-allocation = \"1 mb, 1 vcores\" } }", q + ".root.max-container-allocation", "not allowed on root"),
        arguments("queues { root {}, b {} }", q + ".root", "must be the only top-level queue"),
        arguments("queues { \"a.b\" {} }", q + ".\"a.b\"", "must not contain '.'"),
        arguments("queues { a = 3 }", q + ".a", "a queue must be an object"),
        arguments("queues = [a]", q, "must be an object"),
        arguments("quees { a {} }", AT + ".quees", "unknown setting 'quees'"),
        arguments("defaults { scheduling-policy = fifo }", AT + ".defaults.scheduling-policy", "cannot be fifo"),
        arguments("defaults { queue-max-apps = -1 }", AT + ".defaults.queue-max-apps", "must not be negative"),
        arguments("defaults { max-apps = 1 }", AT + ".defaults.max-apps", "unknown setting 'max-apps'"),
        arguments("users { alice { max-apps = 1 } }", AT + ".users.alice.max-apps", "unknown setting 'max-apps'"),
        arguments("placement-rules = [ { name = specified } ]", AT + ".placement-rules", "the last placement rule must be terminal"),
        arguments("placement-rules = []", AT + ".placement-rules", "has no rules"),
        arguments("placement-rules = { name = reject }", AT + ".placement-rules", "must be a list of rules"),
        arguments("placement-rules = [ { name = default }, { name = reject } ]", AT + ".placement-rules[1]", "can never be reached"),
        arguments("placement-rules = [ { name = group } ]", AT + ".placement-rules[1]", "unknown placement rule 'group'"),
        arguments("placement-rules = [ { name = reject, creat = true } ]", AT + ".placement-rules[1].creat", "unknown setting 'creat'"),
        arguments("placement-rules = [ { name = nestedUserQueue } ]", AT + ".placement-rules[1]", "needs a nested rule"),
        arguments("placement-rules = [ { name = user, parent { name = reject } } ]", AT + ".placement-rules[1].parent", "reject cannot be a parent rule"),
        arguments("placement-rules = [ { name = default, queue = \"q.\" } ]", AT + ".placement-rules[1].queue", "must not start or end with '.'"),
        arguments("preemption { enabled = sometimes }", AT + ".preemption.enabled", "not true or false"),
        arguments("preemption { cluster-utilization-threshold = 1.5 }", AT + ".preemption.cluster-utilization-threshold", "must be between 0 and 1"),
        arguments("update-interval = 0s", AT + ".update-interval", "must be positive"),
        arguments("locality-threshold-node = 1.5", AT + ".locality-threshold-node", "between 0 and 1, or -1 for no delay"),
        arguments("locality-threshold-rack = half", AT + ".locality-threshold-rack", "not a number: 'half'"));
  }

  @ParameterizedTest(name = "{1}: {2}")
  @MethodSource("broken")
  void refusedNamingKeyAndReason(String section, String key, String problem) {
    SettingsException e =
        catchThrowableOfType(SettingsException.class, () -> {
              var root = ConfigFactory.parseString(AT + " {\n" + section + "\n}").resolve();
              FairGlobalSettings.from(root);
              FairSchedulerConfig.fromHocon(root);
            });
    assertThat(e).as("no error for %s", section).isNotNull();
    assertThat(e.key()).isEqualTo(key);
    assertThat(e.getMessage()).contains(problem);
  }

  @Test
  void effectiveValuesMatchTheXmls() {
    assertThat(FairSchedulerConfig.fromHocon(Fixtures.fullHocon()).effectiveQueues())
        .isEqualTo(Fixtures.fullXml().effectiveQueues());
  }

  @Test
  void hoconPlacementRuleNamesMayBeKebabCase() {
    assertThat(Fixtures.hocon("placement-rules = [ { name = secondary-group-existing-queue }, { name = reject } ]")
            .placementPolicy()
            .rules()
            .get(0)
            .kind())
        .isEqualTo(Kind.SECONDARY_GROUP_EXISTING_QUEUE);
    assertThat(List.of(Kind.values())).hasSize(7);
  }
}
