package dev.bobbin.bench;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.capacity.CapacitySchedulerConfig;
import dev.bobbin.config.fair.FairGlobalSettings;
import dev.bobbin.config.fair.FairSchedulerConfig;
import dev.bobbin.core.policy.fair.QueueSpec;
import dev.bobbin.core.policy.fair.FairQueueTree;
import dev.bobbin.config.fair.FairSetup;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The simulated cluster's shape, shared by every scenario: ten leaf queues (flat under FIFO; under
 * Fair three parents with drf, as {@link #FAIR_HOCON}), nodes of YARN's default NodeManager size
 * (8 GB, 8 vcores) and containers of YARN's minimum allocation (1 GB, 1 vcore).
 */
final class Topology {
  static final int QUEUES = 10;
  static final Resource CONTAINER = new Resource(1024, 1);
  static final Resource NODE = new Resource(8192, 8);
  static final int SLOTS_PER_NODE = 8;

  /** Ten leaves under three parents, every queue drf; equal weights but eng, which weighs 2. */
  static final String FAIR_HOCON = """
      bobbin.scheduler.fair {
        defaults { scheduling-policy = drf }
        queues {
          eng { weight = 2, queues { q0 {}, q1 {}, q2 {}, q3 {} } }
          sci { queues { q4 {}, q5 {}, q6 {} } }
          ops { queues { q7 {}, q8 {}, q9 {} } }
        }
        placement-rules = [ { name = specified }, { name = reject } ]
      }
      """;

  /**
   * The same ten leaves and three parents under the Capacity scheduler: eng guaranteed 40 % (its
   * four leaves 25 % each), sci and ops 30 % (their three leaves a third each), the dominant resource
   * calculator as Fair's drf; every queue may grow to the whole cluster and one user may fill its
   * queue, and AMs may take all of a queue, so that a shape of one application can take every slot
   * as under FIFO and Fair.
   */
  static final String CAPACITY_HOCON = """
      bobbin.scheduler.capacity {
        resource-calculator = dominant
        maximum-am-resource-percent = 1.0
        user-limit-factor = 100
        queues {
          eng { capacity = 40, maximum-capacity = 100, queues {
            q0 { capacity = 25, maximum-capacity = 100 }, q1 { capacity = 25, maximum-capacity = 100 },
            q2 { capacity = 25, maximum-capacity = 100 }, q3 { capacity = 25, maximum-capacity = 100 } } }
          sci { capacity = 30, maximum-capacity = 100, queues {
            q4 { capacity = 33.3, maximum-capacity = 100 }, q5 { capacity = 33.3, maximum-capacity = 100 },
            q6 { capacity = 33.4, maximum-capacity = 100 } } }
          ops { capacity = 30, maximum-capacity = 100, queues {
            q7 { capacity = 33.3, maximum-capacity = 100 }, q8 { capacity = 33.3, maximum-capacity = 100 },
            q9 { capacity = 33.4, maximum-capacity = 100 } } }
        }
      }
      """;

  private static final String[] FAIR_PARENTS = {"eng", "eng", "eng", "eng", "sci", "sci", "sci", "ops", "ops", "ops"};

  private Topology() {}

  /**
   * The queue of application {@code i}, as a submission names it (without {@code root.}):
   * {@code hierarchical} for Fair and Capacity, whose leaves sit under three parents.
   */
  static String queue(boolean hierarchical, int i) {
    int q = Math.floorMod(i, QUEUES);
    return hierarchical ? FAIR_PARENTS[q] + ".q" + q : "q" + q;
  }

  static List<String> fifoQueues() {
    List<String> out = new ArrayList<>();
    for (int q = 0; q < QUEUES; q++) out.add("q" + q);
    return out;
  }

  /**
   * Which applications carry the demand in a shape of {@code shape} applications among
   * {@code apps}: spread over the list and over the queues.
   */
  static int[] demandApps(int shape, int apps) {
    int[] out = new int[Math.min(shape, apps)];
    boolean[] used = new boolean[apps];
    int step = Math.max(1, apps / shape);
    for (int i = 0; i < out.length; i++) {
      int j = Math.min(apps - 1, i * step);
      // The next unused application in queue i mod 10 (any unused one if the queue has none left).
      for (int k = 0; k < apps && (used[j] || (k < apps / 2 && Math.floorMod(j, QUEUES) != i % QUEUES)); k++) {
        j = (j + 1) % apps;
      }
      used[j] = true;
      out[i] = j;
    }
    return out;
  }

  static String nodeHost(int i) {
    return String.format(Locale.ROOT, "sim-%05d", i);
  }

  static String nodeId(int i) {
    return nodeHost(i) + ":45454";
  }

  static String rack(int i) {
    return "/rack-" + (i / 40);
  }

  /** RM configuration (HOCON) selecting a policy with the ten queues. */
  static String schedulerHocon(boolean fair) {
    if (!fair) {
      return "bobbin.scheduler { policy = fifo, queues = [" + String.join(", ", fifoQueues()) + "] }\n";
    }
    return "bobbin.scheduler.policy = fair\n" + FAIR_HOCON;
  }

  static CapacitySchedulerConfig capacityConfig() {
    return CapacitySchedulerConfig.fromHocon(ConfigFactory.parseString(CAPACITY_HOCON).resolve());
  }

  static FairSetup fairSetup() {
    Config c = ConfigFactory.parseString(FAIR_HOCON).resolve();
    return new FairSetup(FairSchedulerConfig.fromHocon(c), FairGlobalSettings.from(c));
  }

  /** The Fair policy's queue tree for a cluster of {@code cluster}, as the scheduler builds it. */
  static QueueSpec fairTree(FairSchedulerConfig config, Resource cluster) {
    return FairQueueTree.build(config, Map.of(), cluster);
  }
}
