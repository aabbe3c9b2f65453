package dev.bobbin.config.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.bobbin.config.SettingsException;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each broken configuration is refused with the key that is wrong and the reason. */
class BrokenCapacityConfigTest {
  private static final String P = "yarn.scheduler.capacity.";

  /** The two-queue tree (a and b at 50 %) with the given keys added or changed. */
  private static Arguments broken(String key, String message, String... keyValues) {
    return arguments(Fixtures.twoQueuesWith(keyValues), key, message);
  }

  /** A tree of its own: a(a1, a2) and b. */
  private static Arguments brokenTree(String key, String message, String... keyValues) {
    Map<String, String> m = Fixtures.twoQueuesWith("root.a.queues", "a1,a2", "root.a.a1.capacity", "50", "root.a.a2.capacity", "50");
    for (int i = 0; i < keyValues.length; i += 2) m.put(keyValues[i], keyValues[i + 1]);
    return arguments(m, key, message);
  }

  static Stream<Arguments> refused() {
    return Stream.of(
        // capacities
        broken(P + "root.a.capacity", "not a percentage or [resources]: 'abc'", "root.a.capacity", "abc"),
        broken(P + "root.a.capacity", "is empty", "root.a.capacity", " "),
        broken(P + "root.a.capacity", "must be between 0 and 100 (a percentage of the parent queue), was 150", "root.a.capacity", "150"),
        broken(P + "root.a.capacity", "must be between 0 and 100", "root.a.capacity", "-5"),
        broken(P + "root.a.capacity", "weights ('2w') are not supported yet", "root.a.capacity", "2w", "root.b.capacity", "1w"),
        broken(P + "root.a.capacity", "percentages and weights inside [...]", "root.a.capacity", "[memory=50%,vcores=2]"),
        broken(P + "root.a.capacity", "memory is missing or 0", "root.a.capacity", "[vcores=2]"),
        broken(P + "root.a.capacity", "unknown resource 'gpu'", "root.a.capacity", "[memory=1024,gpu=1]"),
        broken(P + "root.a.capacity", "'m' is milli in Hadoop's units; write 1024 or 1024Mi", "root.a.capacity", "[memory=1024m,vcores=1]"),
        broken(P + "root.a.capacity", "memory is given twice", "root.a.capacity", "[memory=1024,memory-mb=1024]"),
        broken(P + "root.a.capacity", "no closing ']'", "root.a.capacity", "[memory=1024"),
        broken(P + "root.a.capacity", "vcores must be a whole number, was '1.5'", "root.a.capacity", "[memory=1024,vcores=1.5]"),
        broken(P + "root.a.maximum-capacity", "must be between 0 and 100, or -1 for no limit", "root.a.maximum-capacity", "150"),
        broken(P + "root.a.maximum-capacity", "maximum-capacity of root.a (30.0%) is below its capacity (50.0%)", "root.a.maximum-capacity", "30"),
        broken(P + "root.capacity", "root always has the whole cluster", "root.capacity", "50"),
        broken(P + "root.maximum-capacity", "root always has the whole cluster", "root.maximum-capacity", "80"),
        // states
        broken(P + "root.a.state", "must be RUNNING or STOPPED, was 'DRAINING'", "root.a.state", "DRAINING"),
        brokenTree(P + "root.a.a1.state", "root.a.a1 cannot be RUNNING under root.a, which is STOPPED", "root.a.state", "STOPPED", "root.a.a1.state", "RUNNING"),
        // maximum allocation
        broken(P + "root.a.maximum-allocation-mb", "the maximum allocation of root.a (9000 MB, 4 vcores) is above the cluster's (8192 MB, 4 vcores",
            "root.a.maximum-allocation-mb", "9000"),
        broken(P + "root.a.maximum-allocation", "is above the cluster's", "root.a.maximum-allocation", "memory-mb=1024,vcores=5"),
        broken(P + "root.a.maximum-allocation", "Hadoop reads memory=4096 as bytes; write memory-mb=4096 or memory=4096M",
            "root.a.maximum-allocation", "memory=4096,vcores=1"),
        broken(P + "root.a.maximum-allocation", "give both memory-mb and vcores", "root.a.maximum-allocation", "memory-mb=4096"),
        broken(P + "root.a.maximum-allocation", "unknown resource 'gpu'", "root.a.maximum-allocation", "memory-mb=4096,vcores=1,gpu=1"),
        broken(P + "root.a.maximum-allocation", "unknown unit 'T'", "root.a.maximum-allocation", "memory=4T,vcores=1"),
        broken(P + "root.a.maximum-allocation-vcores", "must be above 0, or -1 for the parent's, was 0", "root.a.maximum-allocation-vcores", "0"),
        // ordering
        broken(P + "root.a.ordering-policy", "unknown ordering policy 'lottery' for a leaf queue (known: fifo, fair)", "root.a.ordering-policy", "lottery"),
        broken(P + "root.a.ordering-policy", "orders the queues of a parent queue", "root.a.ordering-policy", "priority-utilization"),
        broken(P + "root.a.ordering-policy", "is not supported yet", "root.a.ordering-policy", "fifo-with-partitions"),
        broken(P + "root.ordering-policy", "orders the applications of a leaf queue", "root.ordering-policy", "fifo"),
        broken(P + "root.a.ordering-policy.fair.enable-size-based-weight", "not true or false: 'yes'",
            "root.a.ordering-policy", "fair", "root.a.ordering-policy.fair.enable-size-based-weight", "yes"),
        // limits
        broken(P + "root.a.priority", "not a whole number: 'high'", "root.a.priority", "high"),
        broken(P + "root.a.minimum-user-limit-percent", "must be between 0 and 100", "root.a.minimum-user-limit-percent", "150"),
        broken(P + "root.a.user-limit-factor", "must be above 0, or -1 for no limit, was 0", "root.a.user-limit-factor", "0"),
        broken(P + "root.a.user-limit-factor", "must be above 0, or -1 for no limit, was -2", "root.a.user-limit-factor", "-2"),
        broken(P + "root.a.user-settings.alice.weight", "the weight of user alice in root.a must be between 0 and 100 / minimum-user-limit-percent = 4.0, was 5.0",
            "root.a.minimum-user-limit-percent", "25", "root.a.user-settings.alice.weight", "5"),
        brokenTree(P + "root.a.user-settings.alice.weight", "the weight of user alice in root.a.a1 must be between 0 and 100 / minimum-user-limit-percent = 1.0, was 1.5",
            "root.a.user-settings.alice.weight", "1.5"),
        broken(P + "root.a.user-settings.alice.weight", "not a number: 'heavy'", "root.a.user-settings.alice.weight", "heavy"),
        broken(P + "root.a.maximum-applications", "must be -1 (not set) or at least 0, was -3", "root.a.maximum-applications", "-3"),
        broken(P + "root.a.maximum-am-resource-percent", "must be between 0 and 1 (a fraction: 0.1 is 10%), was 10", "root.a.maximum-am-resource-percent", "10"),
        broken(P + "root.a.default-application-priority", "not a whole number: 'x'", "root.a.default-application-priority", "x"),
        // ACLs and switches
        broken(P + "root.a.acl_submit_applications", "'bob eng' in 'alice bob eng' is not a user or group name", "root.a.acl_submit_applications", "alice bob eng"),
        broken(P + "root.a.disable_preemption", "not true or false: 'yes'", "root.a.disable_preemption", "yes"),
        // scheduler-wide
        broken(P + "maximum-applications", "must not be negative, was -1", "maximum-applications", "-1"),
        broken(P + "maximum-applications", "not a whole number: 'ten'", "maximum-applications", "ten"),
        broken(P + "maximum-am-resource-percent", "must be between 0 and 1", "maximum-am-resource-percent", "1.5"),
        broken(P + "resource-calculator", "unknown resource calculator 'Fancy'", "resource-calculator", "Fancy"),
        broken(P + "node-locality-delay", "must not be negative, was -1", "node-locality-delay", "-1"),
        broken(P + "rack-locality-additional-delay", "must be -1 (Hadoop's estimate) or at least 0, was -2", "rack-locality-additional-delay", "-2"),
        broken(P + "minimum-user-limit-percent", "must be between 0 and 100", "minimum-user-limit-percent", "101"),
        broken(P + "user-limit-factor", "must be above 0, or -1 for no limit", "user-limit-factor", "-0.5"),
        broken(P + "global-queue-max-application", "not a whole number", "global-queue-max-application", "many"),
        broken("yarn.cluster.max-application-priority", "must not be negative, was -1", "yarn.cluster.max-application-priority", "-1"),
        broken("yarn.scheduler.minimum-allocation-mb", "the minimum (0) and maximum (8192) allocation memory must be above 0", "yarn.scheduler.minimum-allocation-mb", "0"),
        broken("yarn.scheduler.minimum-allocation-mb", "the maximum no smaller than the minimum", "yarn.scheduler.minimum-allocation-mb", "9000"),
        broken("yarn.scheduler.maximum-allocation-vcores", "the minimum (1) and maximum (0) allocation vcores", "yarn.scheduler.maximum-allocation-vcores", "0"),
        // preemption
        broken("yarn.resourcemanager.scheduler.monitor.enable", "not true or false: 'maybe'", "yarn.resourcemanager.scheduler.monitor.enable", "maybe"),
        broken("yarn.resourcemanager.monitor.capacity.preemption.monitoring_interval", "must be above 0",
            "yarn.resourcemanager.monitor.capacity.preemption.monitoring_interval", "0"),
        broken("yarn.resourcemanager.monitor.capacity.preemption.max_wait_before_kill", "must not be negative",
            "yarn.resourcemanager.monitor.capacity.preemption.max_wait_before_kill", "-1"),
        broken("yarn.resourcemanager.monitor.capacity.preemption.total_preemption_per_round", "must be above 0 and at most 1",
            "yarn.resourcemanager.monitor.capacity.preemption.total_preemption_per_round", "0"),
        broken("yarn.resourcemanager.monitor.capacity.preemption.total_preemption_per_round", "must be above 0 and at most 1",
            "yarn.resourcemanager.monitor.capacity.preemption.total_preemption_per_round", "1.5"),
        broken("yarn.resourcemanager.monitor.capacity.preemption.natural_termination_factor", "must be above 0 and at most 1",
            "yarn.resourcemanager.monitor.capacity.preemption.natural_termination_factor", "0"),
        broken("yarn.resourcemanager.monitor.capacity.preemption.max_ignored_over_capacity", "must not be negative",
            "yarn.resourcemanager.monitor.capacity.preemption.max_ignored_over_capacity", "-0.1"),
        broken("yarn.resourcemanager.monitor.capacity.preemption.observe_only", "not true or false",
            "yarn.resourcemanager.monitor.capacity.preemption.observe_only", "1"),
        // mappings
        broken(P + "queue-mappings", "illegal queue mapping 'u:alice': a mapping is u:user:queue or g:group:queue", "queue-mappings", "u:alice"),
        broken(P + "queue-mappings", "illegal queue mapping 'u::a'", "queue-mappings", "u::a"),
        broken(P + "queue-mappings", "it starts with 'x'; a mapping starts with u (user) or g (group)", "queue-mappings", "x:alice:a"),
        broken(P + "queue-mappings", "queue mapping 'u:alice:nosuch': there is no queue 'nosuch'", "queue-mappings", "u:alice:a,u:alice:nosuch"),
        broken(P + "queue-mappings", "queue mapping 'g:eng:root': root is a parent queue; applications go to leaf queues", "queue-mappings", "g:eng:root"),
        broken(P + "queue-mappings", "there is no queue root.a.x, and Bobbin creates no queues at run time", "queue-mappings", "u:alice:root.a.x"),
        broken(P + "queue-mappings", "root.a is a leaf queue, which can have no queues under it", "queue-mappings", "u:%user:a.%user"),
        broken(P + "queue-mappings", "there is no queue root.z to hold the queues the variables name", "queue-mappings", "u:%user:root.z.%user"),
        broken(P + "queue-mappings", "has an empty part", "queue-mappings", "u:alice:root..a"),
        brokenTree(P + "queue-mappings", "root.a is a parent queue", "queue-mappings", "u:alice:a"),
        broken(P + "queue-mappings-override.enable", "not true or false: 'sometimes'", "queue-mappings-override.enable", "sometimes"),
        broken("yarn.scheduler.queue-placement-rules.app-name", "illegal queue mapping 'nightly': an application mapping is name:queue",
            "yarn.scheduler.queue-placement-rules.app-name", "nightly"),
        broken("yarn.scheduler.queue-placement-rules.app-name", "there is no queue 'c'", "yarn.scheduler.queue-placement-rules.app-name", "nightly:c"),
        broken(P + "mapping-rule-format", "JSON mapping rules are not supported yet", "mapping-rule-format", "json"),
        broken(P + "mapping-rule-format", "must be legacy or json, was 'yaml'", "mapping-rule-format", "yaml"),
        // modes Bobbin does not have
        broken(P + "legacy-queue-mode.enabled", "the non-legacy queue mode is not supported yet", "legacy-queue-mode.enabled", "false"),
        broken(P + "root.a.auto-create-child-queue.enabled", "queues created at run time are not supported yet", "root.a.auto-create-child-queue.enabled", "true"),
        broken(P + "root.auto-queue-creation-v2.enabled", "queues created at run time are not supported yet", "root.auto-queue-creation-v2.enabled", "true"),
        // the tree
        broken(P + "root.queues", "the capacities of root's children (a, b) sum to 99.9, not 100", "root.b.capacity", "49.9"),
        // Hadoop adds the fractions as floats: 0.6995 + 0.3 misses 1 by just over 0.0005.
        broken(P + "root.queues", "sum to 99.95, not 100", "root.a.capacity", "69.95", "root.b.capacity", "30"),
        broken(P + "root.queues", "the capacities of root's children (a, b) are all 0 while root has a capacity; set allow-zero-capacity-sum",
            "root.a.capacity", "0", "root.b.capacity", "0"),
        brokenTree(P + "root.queues", "sum to 150", "root.b.capacity", "100"),
        brokenTree(P + "root.a.queues", "root.a has capacity 0 but its children's capacities (a1, a2) sum to 100",
            "root.a.capacity", "0", "root.b.capacity", "100"),
        broken(P + "root.queues", "the children of root mix percentages and absolute resources (a: [memory=1024,vcores=1], b: 50.0%)",
            "root.a.capacity", "[memory=1024,vcores=1]"),
        brokenTree(P + "root.a.queues", "root.a (50.0%) and its children (a1: [memory=1024,vcores=1], a2: 0.0%) must all use absolute resources",
            "root.a.a1.capacity", "[memory=1024,vcores=1]", "root.a.a2.capacity", "0"),
        brokenTree(P + "root.a.queues", "the children of root.a are guaranteed [memory=3072,vcores=2] together, more than root.a's [memory=2048,vcores=2]",
            "root.a.capacity", "[memory=2048,vcores=2]", "root.b.capacity", "[memory=2048,vcores=2]",
            "root.a.a1.capacity", "[memory=2048,vcores=1]", "root.a.a2.capacity", "[memory=1024,vcores=1]"),
        broken(P + "root.a.maximum-capacity", "maximum-capacity of root.a ([memory=1024,vcores=2]) is below its capacity ([memory=2048,vcores=2])",
            "root.a.capacity", "[memory=2048,vcores=2]", "root.b.capacity", "[memory=2048,vcores=2]", "root.a.maximum-capacity", "[memory=1024,vcores=2]"),
        brokenTree(P + "root.a.a1.maximum-capacity", "maximum-capacity of root.a.a1 ([memory=4096,vcores=2]) is above its parent's ([memory=2048,vcores=2])",
            "root.a.capacity", "[memory=2048,vcores=2]", "root.a.maximum-capacity", "[memory=2048,vcores=2]", "root.b.capacity", "[memory=2048,vcores=2]",
            "root.a.a1.capacity", "[memory=1024,vcores=1]", "root.a.a2.capacity", "[memory=1024,vcores=1]", "root.a.a1.maximum-capacity", "[memory=4096,vcores=2]"),
        broken(P + "root.a.maximum-capacity", "mixing percentages and absolute resources in one queue is not supported yet",
            "root.a.maximum-capacity", "[memory=4096,vcores=2]"),
        broken(P + "root.queues", "queue a is listed twice", "root.queues", "a,a,b"),
        broken(P + "root.queues", "'a b' is not a queue name", "root.queues", "a b"),
        broken(P + "root.queues", "root has no queues", "root.queues", " , "));
  }

  @ParameterizedTest(name = "{1}: {2}")
  @MethodSource("refused")
  void refusedWithTheKeyAndTheReason(Map<String, String> properties, String key, String message) {
    SettingsException e = catchThrowableOfType(() -> Fixtures.xml(properties), SettingsException.class);
    assertThat(e).as("refused").isNotNull();
    assertThat(e.key()).isEqualTo(key);
    assertThat(e.getMessage()).startsWith(key + ": ").contains(message);
  }

  @Test
  void theSumIsCheckedAsHadoopAddsFloats() {
    // 0.7004 + 0.3 is within 0.0005 of 1, so Hadoop (and Bobbin) accept it.
    CapacitySchedulerConfig c = Fixtures.xml("root.a.capacity", "70.04", "root.b.capacity", "30");
    assertThat(c.queue("a").orElseThrow().capacity()).isEqualTo(new QueueCapacity.Percentage(70.04f));
  }

  @Test
  void anAmbiguousMappingTargetIsRefused() {
    Map<String, String> m =
        Fixtures.twoQueuesWith(
            "root.a.queues", "x", "root.b.queues", "x", "root.a.x.capacity", "100", "root.b.x.capacity", "100", "queue-mappings", "u:alice:x");
    SettingsException e = catchThrowableOfType(() -> Fixtures.xml(m), SettingsException.class);
    assertThat(e.getMessage()).contains("'x' names more than one queue; give its full path");
    // Both leaves named x are fine in themselves, and the full path is a valid target.
    m.put("queue-mappings", "u:alice:root.b.x");
    CapacitySchedulerConfig c = Fixtures.xml(m);
    assertThat(c.isAmbiguous("x")).isTrue();
    assertThat(c.queue("x")).isEmpty();
    assertThat(c.queue("b.x")).isPresent();
  }

  @Test
  void brokenXmlIsNamed() {
    record Case(String text, String message) {}
    for (Case c :
        new Case[] {
          new Case("<configuration><property>", "malformed XML"),
          new Case("<allocations/>", "the top-level element must be <configuration>, was <allocations>"),
          new Case("<configuration><xi:include href='other.xml'/></configuration>", "<xi:include> is not supported"),
          new Case("<configuration><property><value>1</value></property></configuration>", "a <property> without a <name>"),
          new Case("<configuration><property><nam>x</nam></property></configuration>", "unknown element <nam> in <property>"),
          new Case("<configuration><queue/></configuration>", "unknown element <queue> in <configuration>"),
        }) {
      SettingsException e =
          catchThrowableOfType(() -> CapacitySchedulerConfig.parse(Fixtures.stream(c.text()), "capacity-scheduler.xml"), SettingsException.class);
      assertThat(e).as(c.text()).isNotNull();
      assertThat(e.getMessage()).as(c.text()).contains(c.message());
    }
  }
}
