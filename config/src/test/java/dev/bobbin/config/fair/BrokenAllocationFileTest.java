package dev.bobbin.config.fair;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.bobbin.config.SettingsException;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each broken file is refused with the element that is wrong and the reason. */
class BrokenAllocationFileTest {

  static Stream<Arguments> broken() {
    return Stream.of(
        // values
        arguments("<queue name='a'><weight>abc</weight></queue>", "allocations/queue[root.a]/weight", "not a number: 'abc'"),
        arguments("<queue name='a'><weight>-2</weight></queue>", "allocations/queue[root.a]/weight", "weight must not be negative"),
        arguments("<queue name='a'><weight><x/></weight></queue>", "allocations/queue[root.a]/weight", "holds a value, not elements"),
        arguments("<queue name='a'><maxRunningApps>-1</maxRunningApps></queue>", "allocations/queue[root.a]/maxRunningApps", "must not be negative"),
        arguments("<queue name='a'><maxRunningApps>2.5</maxRunningApps></queue>", "allocations/queue[root.a]/maxRunningApps", "not a whole number: '2.5'"),
        arguments("<queue name='a'><minSharePreemptionTimeout>1.5</minSharePreemptionTimeout></queue>", "allocations/queue[root.a]/minSharePreemptionTimeout", "not a whole number of seconds: '1.5'"),
        arguments("<queue name='a'><fairSharePreemptionTimeout>-3</fairSharePreemptionTimeout></queue>", "allocations/queue[root.a]/fairSharePreemptionTimeout", "must not be negative"),
        arguments("<queue name='a'><allowPreemptionFrom>yes</allowPreemptionFrom></queue>", "allocations/queue[root.a]/allowPreemptionFrom", "not true or false: 'yes'"),
        arguments("<queue name='a'><maxAMShare>-0.5</maxAMShare></queue>", "allocations/queue[root.a]/maxAMShare", "between 0 and 1, or -1 to disable"),
        arguments("<queue name='a'><minResources>50%</minResources></queue>", "allocations/queue[root.a]/minResources", "must be an absolute amount"),
        arguments("<queue name='a'><maxResources>1024 mb</maxResources></queue>", "allocations/queue[root.a]/maxResources", "missing vcores"),
        arguments("<queue name='a'><maxContainerAllocation>50%</maxContainerAllocation></queue>", "allocations/queue[root.a]/maxContainerAllocation", "not a percentage"),
        arguments("<queue name='a'><schedulingPolicy>lottery</schedulingPolicy></queue>", "allocations/queue[root.a]/schedulingPolicy", "schedulingPolicy must be fair, drf or fifo"),
        arguments("<queue name='a'><weight>2</weight><weight>3</weight></queue>", "allocations/queue[root.a]/weight", "duplicate element <weight>"),
        // elements and attributes
        arguments("<queue name='a'><wieght>2</wieght></queue>", "allocations/queue[root.a]/wieght", "unknown element <wieght>"),
        arguments("<queue name='a'><queue name='b'><minResource>1 mb, 1 vcores</minResource></queue></queue>", "allocations/queue[root.a.b]/minResource", "unknown element <minResource>"),
        arguments("<queue name='a' weight='2'/>", "allocations/queue[root.a]", "unknown attribute weight"),
        arguments("<queue name='a' type='branch'/>", "allocations/queue[root.a]", "type must be parent or leaf"),
        arguments("<queue name='a' type='leaf'><queue name='b'/></queue>", "allocations/queue[root.a]", "root.a is declared a leaf but has child queues"),
        arguments("<userMaxAppDefault>3</userMaxAppDefault>", "allocations/userMaxAppDefault", "unknown element <userMaxAppDefault>"),
        arguments("<userMaxAppsDefault>3</userMaxAppsDefault><userMaxAppsDefault>4</userMaxAppsDefault>", "allocations/userMaxAppsDefault", "duplicate element <userMaxAppsDefault>"),
        arguments("<queueMaxAMShareDefault>lots</queueMaxAMShareDefault>", "allocations/queueMaxAMShareDefault", "not a number: 'lots'"),
        arguments("<defaultQueueSchedulingPolicy>fifo</defaultQueueSchedulingPolicy>", "allocations/defaultQueueSchedulingPolicy", "cannot be fifo"),
        arguments("<defaultMinSharePreemptionTimeout>soon</defaultMinSharePreemptionTimeout>", "allocations/defaultMinSharePreemptionTimeout", "not a whole number of seconds"),
        // queue names and the tree
        arguments("<queue name='a'/><queue name='a'/>", "allocations/queue[root.a]", "duplicate queue root.a"),
        arguments("<queue name='a'><queue name='b'/></queue><pool name='a'/>", "allocations/pool[root.a]", "duplicate queue root.a"),
        arguments("<queue name='root'/><queue name='b'/>", "allocations/queue[root]", "must be the only top-level queue"),
        arguments("<queue name='root.a'/>", "allocations/queue", "queue name 'root.a' must not contain '.'"),
        arguments("<queue/>", "allocations/queue", "queue name is empty"),
        arguments("<queue name='a'><queue name='  '/></queue>", "allocations/queue[root.a]/queue", "queue name is empty"),
        arguments("<queue name='root'><queue name='a'><maxAMShare>0.3</maxAMShare><queue name='b'/></queue></queue>", "allocations/queue[root.a]/maxAMShare", "maxAMShare on a parent queue"),
        arguments("<queue name='a' type='parent'><maxAMShare>0.3</maxAMShare></queue>", "allocations/queue[root.a]/maxAMShare", "maxAMShare on a parent queue"),
        arguments("<queue name='root'><maxContainerAllocation>1024 mb, 1 vcores</maxContainerAllocation></queue>", "allocations/queue[root]/maxContainerAllocation", "not allowed on root"),
        arguments("<queue name='a'><schedulingPolicy>fifo</schedulingPolicy><queue name='b'/></queue>", "allocations/queue[root.a]/schedulingPolicy", "fifo is for leaf queues only"),
        arguments("<queue name='a'><queue name='b'><schedulingPolicy>drf</schedulingPolicy></queue></queue>", "allocations/queue[root.a.b]/schedulingPolicy", "under a parent that uses fair"),
        // users
        arguments("<user name='u'><maxApps>3</maxApps></user>", "allocations/user[u]/maxApps", "unknown element <maxApps>"),
        arguments("<user><maxRunningApps>3</maxRunningApps></user>", "allocations/user", "user name is empty"),
        arguments("<user name='u'/><user name='u'/>", "allocations/user[u]", "duplicate user u"),
        arguments("<user name='u'><maxRunningApps>x</maxRunningApps></user>", "allocations/user[u]/maxRunningApps", "not a whole number: 'x'"),
        // placement
        arguments(policy("<rule name='specified'/>"), "allocations/queuePlacementPolicy", "the last placement rule must be terminal"),
        arguments(policy("<rule name='user' create='false'/>"), "allocations/queuePlacementPolicy", "the last placement rule must be terminal"),
        arguments(policy(""), "allocations/queuePlacementPolicy", "has no rules"),
        arguments(policy("<rule name='reject'/>") + policy("<rule name='reject'/>"), "allocations/queuePlacementPolicy", "duplicate element <queuePlacementPolicy>"),
        arguments(policy("<rule name='default'/><rule name='reject'/>"), "allocations/queuePlacementPolicy/rule[1]", "can never be reached"),
        arguments(policy("<rule name='nestedUserQueue'><rule name='primaryGroup'/></rule><rule name='reject'/>"), "allocations/queuePlacementPolicy/rule[1]", "can never be reached"),
        arguments(policy("<rule name='group'/>"), "allocations/queuePlacementPolicy/rule[1]", "unknown placement rule 'group'"),
        arguments(policy("<specified/><rule name='reject'/>"), "allocations/queuePlacementPolicy/specified", "rules are written <rule name="),
        arguments(policy("<rule/>"), "allocations/queuePlacementPolicy/rule[1]", "rule has no name"),
        arguments(policy("<rule name='reject' create='yes'/>"), "allocations/queuePlacementPolicy/rule[1]", "create must be true or false"),
        arguments(policy("<rule name='user' queue='q'/>"), "allocations/queuePlacementPolicy/rule[1]", "applies to the default rule only"),
        arguments(policy("<rule name='default' queue='.q'/>"), "allocations/queuePlacementPolicy/rule[1]", "must not start or end with '.'"),
        arguments(policy("<rule name='default' queue='a..b'/>"), "allocations/queuePlacementPolicy/rule[1]", "has an empty part"),
        arguments(policy("<rule name='specified' priority='1'/><rule name='reject'/>"), "allocations/queuePlacementPolicy/rule[1]", "unknown attribute priority"),
        arguments(policy("<rule name='nestedUserQueue'/>"), "allocations/queuePlacementPolicy/rule[1]", "nestedUserQueue needs a nested rule"),
        arguments(policy("<rule name='specified'><rule name='user'/></rule><rule name='reject'/>"), "allocations/queuePlacementPolicy/rule[1]", "the specified rule takes no parent rule"),
        arguments(policy("<rule name='user'><rule name='reject'/></rule>"), "allocations/queuePlacementPolicy/rule[1]/rule", "reject cannot be a parent rule"),
        arguments(policy("<rule name='user'><rule name='user'/></rule>"), "allocations/queuePlacementPolicy/rule[1]/rule", "same kind as its child"),
        arguments(policy("<rule name='nestedUserQueue'><rule name='primaryGroup'><rule name='user'/></rule></rule>"), "allocations/queuePlacementPolicy/rule[1]/rule", "cannot have a parent rule of its own"),
        arguments(policy("<rule name='user'><rule name='primaryGroup'/><rule name='default'/></rule>"), "allocations/queuePlacementPolicy/rule[1]/rule", "at most one nested"),
        arguments(policy("<rule name='user'><parent name='primaryGroup'/></rule>"), "allocations/queuePlacementPolicy/rule[1]/parent", "unknown element <parent>"),
        // the document itself
        arguments("<?xml version='1.0'?>\n<queues/>", "allocations", "the top-level element must be <allocations>, was <queues>"),
        arguments("<queue name='a'>", "allocation file", "malformed XML at line 4:"),
        arguments("<?xml version='1.0'?>\n<!DOCTYPE allocations [<!ENTITY x SYSTEM 'file:///etc/passwd'>]>\n<allocations>&x;</allocations>", "allocation file", "DOCTYPE"));
  }

  private static String policy(String rules) {
    return "<queuePlacementPolicy>" + rules + "</queuePlacementPolicy>";
  }

  @ParameterizedTest(name = "{1}: {2}")
  @MethodSource("broken")
  void refusedNamingElementAndReason(String body, String key, String problem) {
    String doc = body.startsWith("<?xml") ? body : "<?xml version=\"1.0\"?>\n<allocations>\n" + body + "\n</allocations>\n";
    SettingsException e =
        catchThrowableOfType(SettingsException.class, () -> AllocationFileParser.parse(Fixtures.stream(doc)));
    assertThat(e).as("no error for %s", body).isNotNull();
    assertThat(e.key()).isEqualTo(key);
    assertThat(e.getMessage()).startsWith(key + ": ").contains(problem);
  }

  @Test
  void missingFileNamesThePath() {
    Path nowhere = Path.of("/nonexistent/fair-scheduler.xml");
    SettingsException e = catchThrowableOfType(SettingsException.class, () -> AllocationFileParser.parse(nowhere));
    assertThat(e.key()).isEqualTo(nowhere.toString());
    assertThat(e.getMessage()).contains("no such allocation file");
  }
}
