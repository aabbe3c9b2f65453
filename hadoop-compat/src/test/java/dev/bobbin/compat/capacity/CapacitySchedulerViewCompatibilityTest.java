package dev.bobbin.compat.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.module.jaxb.JaxbAnnotationModule;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.QueuePath;
import dev.bobbin.config.capacity.CapacitySchedulerConfig;
import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.AppView;
import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.ClusterView;
import dev.bobbin.core.policy.ContainerSnapshot;
import dev.bobbin.core.policy.LeafApps;
import dev.bobbin.core.policy.NodeView;
import dev.bobbin.core.policy.capacity.CapacityPolicySet;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.WireJson;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.QueueState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.UserInfo;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.dao.CapacitySchedulerInfo;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.dao.CapacitySchedulerLeafQueueInfo;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.dao.CapacitySchedulerQueueInfo;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.dao.ResourceInfo;
import org.junit.jupiter.api.Test;

/**
 * The capacity policy's {@code GET /ws/v1/cluster/scheduler} body, as the RM writes it, read into
 * Hadoop's own web service classes ({@code CapacitySchedulerInfo} and the rest) the way a JAXB-aware
 * JSON client reads Hadoop's: every field Bobbin writes must be one of Hadoop's, and the values
 * must read back as written.
 */
class CapacitySchedulerViewCompatibilityTest {
  private static final long GB = 1024;

  /** JAXB's xsi:type is the "type" property in Hadoop's JSON: it picks the leaf queue's class. */
  @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type",
      defaultImpl = CapacitySchedulerQueueInfo.class)
  @JsonSubTypes(@JsonSubTypes.Type(value = CapacitySchedulerLeafQueueInfo.class, name = "capacitySchedulerLeafQueueInfo"))
  private interface QueueType {}

  @JsonIgnoreProperties("type")
  private interface SchedulerType {}

  private static final ObjectMapper HADOOP = new ObjectMapper()
      .registerModule(new JaxbAnnotationModule())
      .addMixIn(CapacitySchedulerQueueInfo.class, QueueType.class)
      .addMixIn(CapacitySchedulerInfo.class, SchedulerType.class)
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  /** a (70 %: a1 60 %, a2 40 %) and b (30 %, STOPPED) on two 8 GB nodes, with three users' applications. */
  private static final String QUEUES = """
      bobbin.scheduler.capacity.queues {
        a { capacity = 70, queues {
              a1 { capacity = 60, minimum-user-limit-percent = 50, user-limit-factor = 2 }
              a2 { capacity = 40 } } }
        b { capacity = 30, maximum-capacity = 50, state = STOPPED }
      }""";

  @Test
  void hadoopsClassesReadTheViewWithItsValues() throws Exception {
    CapacityPolicySet policy = new CapacityPolicySet(CapacitySchedulerConfig.fromHocon(ConfigFactory.parseString(QUEUES)));
    Cluster cluster = new Cluster();
    cluster.app("app-1", "root.a.a1", "alice", gb(4), gb(1), Resource.NONE);
    cluster.app("app-2", "root.a.a1", "bob", gb(2), gb(1), gb(3));
    cluster.app("app-3", "root.b", "carol", gb(1), gb(1), Resource.NONE);
    cluster.apps.keySet().forEach(id -> policy.follow(id, QueuePath.of(cluster.apps.get(id).queuePath())));
    policy.assign(cluster, 0); // activates the applications, places nothing

    String body = WireJson.mapper().writeValueAsString(
        Map.of("scheduler", Map.of("schedulerInfo", policy.view(cluster).schedulerInfo())));
    JsonNode info = HADOOP.readTree(body).path("scheduler").path("schedulerInfo");
    assertThat(info.path("type").asText()).isEqualTo("capacityScheduler");
    CapacitySchedulerInfo root = HADOOP.treeToValue(info, CapacitySchedulerInfo.class);

    // The root: the whole cluster, 7 GB of 16 used.
    assertThat(root.getQueueName()).isEqualTo("root");
    assertThat(root.getQueuePath()).isEqualTo("root");
    assertThat(root.getCapacity()).isEqualTo(100f);
    assertThat(root.getMaxCapacity()).isEqualTo(100f);
    assertThat(root.getUsedCapacity()).isEqualTo(7f / 16 * 100);
    assertThat(root.getOrderingPolicyInfo()).isEqualTo("utilization");

    // Leaf queues before parent queues, as Hadoop lists them.
    List<CapacitySchedulerQueueInfo> top = root.getQueues().getQueueInfoList();
    assertThat(top).extracting(CapacitySchedulerQueueInfo::getQueuePath).containsExactly("root.b", "root.a");

    // b: 30 % of the cluster, at most 50 %, STOPPED with carol's application still in it.
    CapacitySchedulerLeafQueueInfo b = (CapacitySchedulerLeafQueueInfo) top.get(0);
    assertThat(b.getQueueName()).isEqualTo("b");
    assertThat(b.getCapacity()).isEqualTo(0.3f * 100);
    assertThat(b.getAbsoluteCapacity()).isEqualTo(0.3f * 100);
    assertThat(b.getMaxCapacity()).isEqualTo(50f);
    assertThat(b.getAbsoluteMaxCapacity()).isEqualTo(50f);
    assertThat(b.getQueueState()).isEqualTo(QueueState.DRAINING.toString());
    assertThat(b.getNumApplications()).isEqualTo(1);
    assertThat(b.getNumActiveApplications()).isEqualTo(1);
    assertThat(memory(b.getResourcesUsed())).isEqualTo(GB);
    // 1 GB of its guarantee of 0.3 x 16 GB = 4915 MB.
    assertThat(b.getUsedCapacity()).isEqualTo((float) GB / 4915 * 100);
    assertThat(b.getAbsoluteUsedCapacity()).isEqualTo(1f / 16 * 100);
    // (int) (10000 x 0.3) applications, all of them for one user.
    assertThat(b.getMaxApplications()).isEqualTo(3000);
    assertThat(b.getMaxApplicationsPerUser()).isEqualTo(3000);
    assertThat(b.getUserLimitFactor()).isEqualTo(1f);
    assertThat(b.getUsers().getUsersList()).extracting(UserInfo::getUsername).containsExactly("carol");

    // a1: 60 % of a's 70 %, two users at minimum-user-limit-percent 50 and user-limit-factor 2.
    CapacitySchedulerQueueInfo a = top.get(1);
    assertThat(a.getQueueType()).isEqualTo("parent");
    assertThat(memory(a.getResourcesUsed())).isEqualTo(6 * GB);
    List<CapacitySchedulerQueueInfo> children = a.getQueues().getQueueInfoList();
    CapacitySchedulerLeafQueueInfo a1 = (CapacitySchedulerLeafQueueInfo) children.get(0);
    assertThat(a1.getQueuePath()).isEqualTo("root.a.a1");
    assertThat(a1.getCapacity()).isEqualTo(0.6f * 100);
    assertThat(a1.getAbsoluteCapacity()).isEqualTo(0.6f * 0.7f * 100);
    assertThat(a1.getQueueState()).isEqualTo("RUNNING");
    assertThat(a1.getUserLimit()).isEqualTo(50f);
    assertThat(a1.getUserLimitFactor()).isEqualTo(2f);
    assertThat(a1.getNumActiveApplications()).isEqualTo(2);
    assertThat(a1.getNumPendingApplications()).isZero();
    assertThat(a1.getConfiguredMaxAMResourceLimit()).isEqualTo(0.1f);
    assertThat(memory(a1.getUsedAMResource())).isEqualTo(2 * GB);
    List<UserInfo> users = a1.getUsers().getUsersList();
    assertThat(users).extracting(UserInfo::getUsername).containsExactly("alice", "bob");
    UserInfo alice = users.get(0);
    assertThat(memory(alice.getResourcesUsed())).isEqualTo(4 * GB);
    assertThat(memory(alice.getAMResourcesUsed())).isEqualTo(GB);
    assertThat(alice.getNumActiveApplications()).isEqualTo(1);
    assertThat(alice.getIsActive()).as("asks for nothing more").isFalse();
    assertThat(users.get(1).getIsActive()).isTrue();
    // The limit both are held to: bob alone is active, so (2 GB + 1 GB) / 1 = 3 GB against 50 % of
    // a1's guarantee (0.42 x 16 GB = 6881 MB, which the 6 GB used are below): 3441 MB; the larger,
    // rounded up to 1 GB.
    assertThat(memory(alice.getUserResourceLimit())).isEqualTo(memory(users.get(1).getUserResourceLimit()));
    assertThat(memory(alice.getUserResourceLimit())).isEqualTo(4 * GB);
  }

  private static long memory(ResourceInfo r) {
    return r.getMemorySize();
  }

  private static Resource gb(long gigabytes) {
    return new Resource(gigabytes * GB, (int) gigabytes);
  }

  /** Two 8 GB nodes and the applications given; nothing asks but what {@code pending} says. */
  private static final class Cluster implements ClusterView {
    final Map<String, AppSnapshot> apps = new java.util.LinkedHashMap<>();
    final Map<String, String> users = new HashMap<>();
    final Map<String, Resource> pending = new HashMap<>();

    void app(String id, String queue, String user, Resource used, Resource am, Resource wants) {
      apps.put(id, new AppSnapshot(id, id + "_1", queue, 0, apps.size(), used, am, wants, Resource.NONE));
      users.put(id, user);
      pending.put(id, wants);
    }

    @Override
    public List<NodeView> usableNodes() {
      return List.of(new NodeView("n1", "n1", "/r", gb(8), Resource.NONE), new NodeView("n2", "n2", "/r", gb(8),
          Resource.NONE));
    }

    @Override
    public Resource capacity() {
      return new Resource(16 * GB, 16);
    }

    @Override
    public Resource used() {
      return apps.values().stream().map(AppSnapshot::usage).reduce(Resource.NONE, Resource::plus);
    }

    @Override
    public List<AppView> waiting() {
      return apps.values().stream().filter(a -> !pending.get(a.appId()).equals(Resource.NONE))
          .map(a -> new AppView(a.appId(), a.attemptId(), a.queuePath(), 0, a.submitTime(),
              List.of(Ask.anyOf(new Resource(GB, 1), (int) (pending.get(a.appId()).memory() / GB)))))
          .toList();
    }

    @Override
    public List<AppSnapshot> apps() {
      return List.copyOf(apps.values());
    }

    @Override
    public Map<String, String> users() {
      return users;
    }

    @Override
    public Resource amUsed() {
      return apps.values().stream().map(AppSnapshot::amUsage).reduce(Resource.NONE, Resource::plus);
    }

    @Override
    public List<ContainerSnapshot> preemptable() {
      return List.of();
    }

    @Override
    public Set<String> preempting() {
      return Set.of();
    }

    @Override
    public Map<String, LeafApps> leafApps() {
      return Map.of();
    }

    @Override
    public int liveContainers() {
      return 0;
    }
  }
}
