package dev.bobbin.core.policies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.QueuePath;
import dev.bobbin.config.SchedulerPolicy;
import dev.bobbin.config.SchedulerSettings;
import dev.bobbin.config.SettingsException;
import dev.bobbin.config.fair.Placement;
import dev.bobbin.core.policy.AdmissionTerms;
import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.AppView;
import dev.bobbin.core.policy.ClusterView;
import dev.bobbin.core.policy.ContainerSnapshot;
import dev.bobbin.core.policy.LeafApps;
import dev.bobbin.core.policy.NodeView;
import dev.bobbin.core.policy.PolicyConfig;
import dev.bobbin.core.policy.PolicySet;
import dev.bobbin.core.policy.Reconfiguration;
import dev.bobbin.protocol.Resource;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The three policy families behind the one seam: placement, admission terms, queues made at run time, views. */
class PolicySetsTest {
  private static final SchedulerSettings FIFO = settings(SchedulerPolicy.FIFO, List.of("default", "batch"));
  private static final SchedulerSettings FAIR = settings(SchedulerPolicy.FAIR, List.of("default"));
  private static final SchedulerSettings CAPACITY = settings(SchedulerPolicy.CAPACITY, List.of("default"));

  private static SchedulerSettings settings(SchedulerPolicy policy, List<String> queues) {
    return new SchedulerSettings(policy, queues, 1024, 1, 8192, 4, Duration.ofMillis(100), 2000, 0.5);
  }

  private static PolicyConfig fair(String hocon) {
    var root = ConfigFactory.parseString("bobbin.scheduler.fair {" + hocon + "}").resolve();
    return PolicySets.load(root, FAIR);
  }

  /** A cluster of one 8 GB node with nothing running. */
  private record EmptyCluster() implements ClusterView {
    public List<NodeView> usableNodes() {
      return List.of(new NodeView("a:1", "a", "/r", Resource.of(8192, 8), Resource.NONE));
    }

    public Resource capacity() {
      return Resource.of(8192, 8);
    }

    public Resource used() {
      return Resource.NONE;
    }

    public List<AppView> waiting() {
      return List.of();
    }

    public List<AppSnapshot> apps() {
      return List.of();
    }

    public Resource amUsed() {
      return Resource.NONE;
    }

    public List<ContainerSnapshot> preemptable() {
      return List.of();
    }

    public Set<String> preempting() {
      return Set.of();
    }

    public Map<String, LeafApps> leafApps() {
      return Map.of();
    }

    public int liveContainers() {
      return 0;
    }
  }

  @Test
  void fifoPlacesInTheQueuesItNamesWithOrWithoutTheRootAndRefusesOthersNamingThem() {
    PolicySet fifo = PolicySets.create(new PolicyConfig(FIFO, null));
    assertThat(fifo.place(null, "alice", List.of("alice"))).isEqualTo(new Placement.Placed("root.default", List.of(), "fifo"));
    assertThat(fifo.place("root.batch", "alice", List.of("alice")))
        .isEqualTo(new Placement.Placed("root.batch", List.of(), "fifo"));
    assertThat(fifo.place("nope", "alice", List.of("alice")))
        .isEqualTo(new Placement.Rejected("Queue nope does not exist; known queues: [default, batch]"));
    assertThat(fifo.admission(QueuePath.of("batch"))).isEqualTo(AdmissionTerms.OPEN);
  }

  @Test
  void fifoRefusesARefreshAndShowsTheClusterAsOneQueue() {
    PolicySet fifo = PolicySets.create(new PolicyConfig(FIFO, null));
    assertThat(fifo.reconfigure(new PolicyConfig(FIFO, null))).isInstanceOf(Reconfiguration.Rejected.class);
    assertThat(fifo.updateInterval()).isEmpty();
    Map<String, Object> info = fifo.view(new EmptyCluster()).schedulerInfo();
    assertThat(info).containsEntry("type", "fifoScheduler").containsEntry("totalNodeCapacity", 8192L)
        .containsEntry("queues", List.of("default", "batch"));
  }

  @Test
  void fairRefusalsSayTheyCameFromPlacement() {
    PolicySet fair = PolicySets.create(fair("placement-rules = [ { name = specified, create = false }, { name = reject } ]"));
    assertThat(fair.place("root.nowhere", "alice", List.of("alice")))
        .isEqualTo(new Placement.Rejected("Application rejected by queue placement: rule 2 (reject): "
            + "the reject rule refuses every application that reaches it"));
  }

  @Test
  void aQueueMadeForAnApplicationLastsAsLongAsApplicationsAreInIt() {
    PolicySet fair = PolicySets.create(fair("queues { eng {} }"));
    fair.follow("app-1", QueuePath.of("users.alice"));
    fair.follow("app-2", QueuePath.of("users.alice"));
    fair.follow("app-3", QueuePath.of("eng"));
    assertThat(queueNames(fair)).containsExactly("root", "root.eng", "root.users", "root.users.alice");
    fair.forget("app-1");
    assertThat(queueNames(fair)).contains("root.users.alice");
    fair.forget("app-2");
    assertThat(queueNames(fair)).containsExactly("root", "root.eng");
  }

  @Test
  void aPathThatIsOneApplicationsLeafAndAnothersParentIsAParent() {
    PolicySet fair = PolicySets.create(fair(""));
    fair.follow("app-1", QueuePath.of("team"));
    fair.follow("app-2", QueuePath.of("team.alice"));
    Map<String, Object> team = child(fair.view(new EmptyCluster()).schedulerInfo().get("rootQueue"), "root.team");
    assertThat(team).doesNotContainKey("type").containsKey("childQueues");
  }

  @Test
  void aFairRefreshSwapsTheQueuesAndKeepsThoseApplicationsAreIn() {
    PolicySet fair = PolicySets.create(fair("queues { eng {} }"));
    fair.follow("app-1", QueuePath.of("adhoc"));
    var r = fair.reconfigure(fair("queues { eng {}, sci {} }"));
    assertThat(r).isEqualTo(new Reconfiguration.Accepted("Queues refreshed: [root, root.eng, root.sci]"));
    assertThat(queueNames(fair)).contains("root.sci", "root.adhoc");
    assertThat(fair.reconfigure(new PolicyConfig(FAIR, null))).isInstanceOf(Reconfiguration.Rejected.class);
  }

  private static PolicyConfig capacity(String hocon) {
    return PolicySets.load(ConfigFactory.parseString("bobbin.scheduler.capacity {" + hocon + "}").resolve(), CAPACITY);
  }

  @Test
  void capacityPlacesAdmitsAndShowsItsQueues() {
    PolicySet capacity = PolicySets.create(capacity("queues { a { capacity = 70 }, b { capacity = 30, state = STOPPED } }"));
    assertThat(capacity.place("a", "alice", List.of("alice"))).isEqualTo(new Placement.Placed("root.a", List.of(),
        "the queue named"));
    assertThat(capacity.admission(QueuePath.of("b")).stopped()).isTrue();
    assertThat(capacity.admission(QueuePath.of("a"))).isEqualTo(new AdmissionTerms(false, 7000, 7000));
    assertThat(capacity.updateInterval()).as("no preemption yet").isEmpty();
    Map<String, Object> info = capacity.view(new EmptyCluster()).schedulerInfo();
    assertThat(info).containsEntry("type", "capacityScheduler").containsEntry("queueName", "root");
  }

  @Test
  void capacityRefusesAllocationBoundsOtherThanTheSchedulers() {
    assertThatThrownBy(() -> PolicySets.load(ConfigFactory.parseString(
        "bobbin.scheduler.minimum-allocation.memory = 512, bobbin.scheduler.capacity.queues { a { capacity = 100 } }"),
        CAPACITY))
        .isInstanceOf(SettingsException.class)
        .hasMessageContaining("yarn.scheduler.minimum-allocation-mb")
        .hasMessageContaining("bobbin.scheduler.minimum-allocation.memory is 1024");
  }

  @Test
  void capacityRefreshesWithACapacityConfigurationOnly() {
    PolicySet capacity = PolicySets.create(capacity("queues { a { capacity = 100 } }"));
    assertThat(capacity.reconfigure(capacity("queues { a { capacity = 60 }, b { capacity = 40 } }")))
        .isEqualTo(new Reconfiguration.Accepted("Queues refreshed: [root.a, root.b]"));
    assertThat(capacity.reconfigure(new PolicyConfig(CAPACITY, null))).isInstanceOf(Reconfiguration.Rejected.class);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> child(Object queue, String name) {
    Map<String, Object> q = (Map<String, Object>) queue;
    if (name.equals(q.get("queueName"))) return q;
    Object kids = q.get("childQueues");
    if (kids == null) return null;
    for (Object k : (List<Object>) ((Map<String, Object>) kids).get("queue")) {
      Map<String, Object> found = child(k, name);
      if (found != null) return found;
    }
    return null;
  }

  @SuppressWarnings("unchecked")
  private static List<String> queueNames(PolicySet fair) {
    List<String> names = new java.util.ArrayList<>();
    collect(fair.view(new EmptyCluster()).schedulerInfo().get("rootQueue"), names);
    return names.stream().sorted().toList();
  }

  @SuppressWarnings("unchecked")
  private static void collect(Object queue, List<String> names) {
    Map<String, Object> q = (Map<String, Object>) queue;
    names.add((String) q.get("queueName"));
    Object kids = q.get("childQueues");
    if (kids != null) for (Object k : (List<Object>) ((Map<String, Object>) kids).get("queue")) collect(k, names);
  }
}
