package dev.bobbin.bench;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
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

  private static final String[] FAIR_PARENTS = {"eng", "eng", "eng", "eng", "sci", "sci", "sci", "ops", "ops", "ops"};

  private Topology() {}

  /** The queue of application {@code i}, as a submission names it (without {@code root.}). */
  static String queue(boolean fair, int i) {
    int q = Math.floorMod(i, QUEUES);
    return fair ? FAIR_PARENTS[q] + ".q" + q : "q" + q;
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

  static FairSetup fairSetup() {
    Config c = ConfigFactory.parseString(FAIR_HOCON).resolve();
    return new FairSetup(FairSchedulerConfig.fromHocon(c), FairGlobalSettings.from(c));
  }

  /** The Fair policy's queue tree for a cluster of {@code cluster}, as the scheduler builds it. */
  static QueueSpec fairTree(FairSchedulerConfig config, Resource cluster) {
    return FairQueueTree.build(config, Map.of(), cluster);
  }
}
