package dev.bobbin.config.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.bobbin.config.SettingsException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

class CapacityConfigPropertiesTest {

  /** A generated queue: its settings as Hadoop key suffixes and values, and its children. */
  record Queue(String name, Map<String, String> settings, List<Queue> children) {}

  @Provide
  Arbitrary<Queue> trees() {
    return Arbitraries.randomValue(r -> queue("root", 100, r, 0));
  }

  private static Queue queue(String name, int capacity, Random r, int depth) {
    Map<String, String> s = new LinkedHashMap<>();
    boolean leaf = depth > 0 && (depth == 3 || r.nextInt(3) > 0);
    if (depth > 0) {
      s.put("capacity", Integer.toString(capacity));
      if (r.nextBoolean()) s.put("maximum-capacity", Integer.toString(capacity + r.nextInt(101 - capacity)));
      if (r.nextInt(4) == 0) s.put("state", "STOPPED");
    }
    if (r.nextBoolean()) s.put("acl_submit_applications", List.of("*", " ", "alice,bob eng", " ops").get(r.nextInt(4)));
    if (r.nextBoolean()) s.put("priority", Integer.toString(r.nextInt(5)));
    if (r.nextBoolean()) s.put("disable_preemption", Boolean.toString(r.nextBoolean()));
    if (leaf) {
      if (r.nextBoolean()) s.put("ordering-policy", r.nextBoolean() ? "fifo" : "fair");
      if (r.nextBoolean()) s.put("user-limit-factor", List.of("1", "2.5", "-1").get(r.nextInt(3)));
      if (r.nextBoolean()) s.put("minimum-user-limit-percent", Integer.toString(1 + r.nextInt(100)));
      if (r.nextBoolean()) s.put("maximum-applications", Integer.toString(r.nextInt(1000)));
      if (r.nextBoolean()) s.put("maximum-am-resource-percent", "0." + r.nextInt(10));
      if (r.nextBoolean()) s.put("maximum-allocation-mb", Integer.toString(1024 * (1 + r.nextInt(8))));
      return new Queue(name, s, List.of());
    }
    if (r.nextBoolean()) s.put("ordering-policy", r.nextBoolean() ? "utilization" : "priority-utilization");
    int n = 1 + r.nextInt(4);
    List<Integer> parts = split(100, n, r);
    List<Queue> children = new ArrayList<>();
    // Named in order, so that the name order HOCON gives is the order the XML lists.
    for (int i = 0; i < n; i++) children.add(queue("q" + depth + i, parts.get(i), r, depth + 1));
    return new Queue(name, s, children);
  }

  private static List<Integer> split(int total, int n, Random r) {
    TreeSet<Integer> cuts = new TreeSet<>();
    while (cuts.size() < n - 1) cuts.add(1 + r.nextInt(total - 1));
    List<Integer> parts = new ArrayList<>();
    int last = 0;
    for (int c : cuts) {
      parts.add(c - last);
      last = c;
    }
    parts.add(total - last);
    return parts;
  }

  private static void xml(Queue q, String path, Map<String, String> out) {
    q.settings().forEach((k, v) -> out.put(path + "." + k, v));
    if (q.children().isEmpty()) return;
    out.put(path + ".queues", String.join(",", q.children().stream().map(Queue::name).toList()));
    for (Queue c : q.children()) xml(c, path + "." + c.name(), out);
  }

  private static String hocon(Queue q) {
    StringBuilder s = new StringBuilder(q.name()).append(" {\n");
    q.settings().forEach((k, v) -> {
      QueueKey key = java.util.Arrays.stream(QueueKey.values()).filter(x -> x.hadoop.equals(k)).findFirst().orElseThrow();
      s.append(key.hocon).append(" = \"").append(v).append("\"\n");
    });
    if (!q.children().isEmpty()) {
      s.append("queues {\n");
      q.children().forEach(c -> s.append(hocon(c)));
      s.append("}\n");
    }
    return s.append("}\n").toString();
  }

  @Property(tries = 300)
  void theXmlAndTheHoconFormGiveEqualConfigurations(@ForAll("trees") Queue root) {
    Map<String, String> xml = new LinkedHashMap<>();
    xml(root, "root", xml);
    CapacitySchedulerConfig fromXml = Fixtures.xml(xml);
    CapacitySchedulerConfig fromHocon = Fixtures.hocon("queues {\n" + hocon(root) + "}");
    assertThat(fromHocon).isEqualTo(fromXml);
    assertThat(fromXml.warnings()).isEmpty();
  }

  @Property(tries = 300)
  void childrenAreStoppedUnderAStoppedParentAndInheritItsMaximumAllocation(@ForAll("trees") Queue root) {
    Map<String, String> xml = new LinkedHashMap<>();
    xml(root, "root", xml);
    CapacitySchedulerConfig c = Fixtures.xml(xml);
    for (CapacityQueue q : c.queues().values()) {
      for (CapacityQueue child : q.children()) {
        if (q.state() == QueueState.STOPPED) assertThat(child.state()).isEqualTo(QueueState.STOPPED);
        assertThat(child.maximumAllocationMb()).isLessThanOrEqualTo(c.schedulerWide().maximumAllocationMb());
        if (!xml.containsKey(child.path().full() + ".maximum-allocation-mb")) {
          assertThat(child.maximumAllocationMb()).isEqualTo(q.maximumAllocationMb());
        }
      }
    }
  }

  @Property(tries = 200)
  void wholePercentagesThatSumTo100Load(@ForAll @IntRange(min = 1, max = 12) int children, @ForAll long seed) {
    List<Integer> parts = split(100, Math.min(children, 99), new Random(seed));
    CapacitySchedulerConfig c = Fixtures.xml(siblings(parts.stream().map(String::valueOf).toList()));
    float sum = 0;
    for (CapacityQueue q : c.root().children()) sum += ((QueueCapacity.Percentage) q.capacity()).percent();
    assertThat(sum).isCloseTo(100f, org.assertj.core.data.Offset.offset(0.001f));
  }

  @Property(tries = 200)
  void sumsOffBy0Point1OrMoreAreRefused(
      @ForAll @IntRange(min = 1, max = 12) int children, @ForAll long seed, @ForAll @IntRange(min = -500, max = 500) int tenths) {
    if (tenths == 0) tenths = 1;
    List<Integer> parts = split(100, Math.min(children, 99), new Random(seed));
    List<String> capacities = new ArrayList<>(parts.stream().map(String::valueOf).toList());
    // Move the first child's capacity off by a multiple of 0.1 that keeps it within 0..100.
    double first = parts.get(0) + tenths / 10.0;
    if (first < 0 || first > 100) first = parts.get(0) + (tenths > 0 ? -0.1 : 0.1);
    capacities.set(0, String.valueOf(first));
    SettingsException e = catchThrowableOfType(() -> Fixtures.xml(siblings(capacities)), SettingsException.class);
    assertThat(e).isNotNull();
    assertThat(e.key()).isEqualTo("yarn.scheduler.capacity.root.queues");
  }

  private static Map<String, String> siblings(List<String> capacities) {
    Map<String, String> m = new LinkedHashMap<>();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < capacities.size(); i++) {
      names.add("q" + i);
      m.put("root.q" + i + ".capacity", capacities.get(i));
    }
    m.put("root.queues", String.join(",", names));
    return m;
  }
}
