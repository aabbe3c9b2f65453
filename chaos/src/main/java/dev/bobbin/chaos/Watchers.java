package dev.bobbin.chaos;

import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.client.CallException;
import dev.bobbin.protocol.client.NodeRestClient;
import dev.bobbin.protocol.rest.AppInfo;
import dev.bobbin.protocol.rest.AppsQuery;
import dev.bobbin.protocol.rest.NodeContainerInfo;
import dev.bobbin.protocol.rest.NodeInfo;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Polls, on their own threads: every NodeManager's containers (for the checker), the RM's node
 * list (its view of capacity) and its application list (for the tracker), from a random serving
 * member. A failed poll is skipped; nothing is inferred from a NodeManager that did not answer.
 */
final class Watchers implements AutoCloseable {
  static final Duration NM_POLL = Duration.ofMillis(500);
  private static final Duration APP_POLL = Duration.ofSeconds(1);
  private static final Duration RM_NODE_POLL = Duration.ofSeconds(2);
  private static final Duration NM_TIMEOUT = Duration.ofSeconds(2);
  private static final Duration RM_TIMEOUT = Duration.ofSeconds(5);

  private final Cluster cluster;
  private final ClusterClients clients;
  private final NodeRestClient nodeManagers;
  private final InvariantChecker checker;
  private final AppTracker tracker;
  private final Random random;
  private final AtomicInteger failedPolls = new AtomicInteger();
  private final ScheduledExecutorService pool = Executors.newScheduledThreadPool(4, r -> {
    Thread t = new Thread(r, "chaos-watch");
    t.setDaemon(true);
    return t;
  });

  Watchers(Cluster cluster, ClusterClients clients, InvariantChecker checker, AppTracker tracker, Random random) {
    this.cluster = cluster;
    this.clients = clients;
    this.nodeManagers = clients.nodes(NM_TIMEOUT);
    this.checker = checker;
    this.tracker = tracker;
    this.random = random;
  }

  void start() {
    every(NM_POLL, this::pollNodeManagers);
    every(APP_POLL, this::pollApps);
    every(RM_NODE_POLL, this::pollRmNodes);
  }

  /** Runs {@code task} every {@code period} until {@link #close()}; an exception skips one round only. */
  void every(Duration period, Runnable task) {
    pool.scheduleWithFixedDelay(() -> {
      try {
        task.run();
      } catch (RuntimeException e) {
        failedPolls.incrementAndGet();
      }
    }, 0, period.toMillis(), TimeUnit.MILLISECONDS);
  }

  int failedPolls() {
    return failedPolls.get();
  }

  void pollNodeManagers() {
    for (NmAgent nm : cluster.nodes()) {
      try {
        List<InvariantChecker.ContainerSeen> seen = nodeManagers.containers(nm.url()).stream()
            .map(Watchers::seen).toList();
        checker.observeNode(nm.nodeId(), System.currentTimeMillis(), nm.capacity(), seen);
      } catch (CallException e) {
        failedPolls.incrementAndGet();
      }
    }
  }

  void pollApps() {
    Member m = anyServing();
    if (m == null) return;
    try {
      for (AppInfo app : clients.rm(m, RM_TIMEOUT).applications(AppsQuery.all())) tracker.seen(app);
    } catch (CallException e) {
      failedPolls.incrementAndGet();
    }
  }

  void pollRmNodes() {
    Member m = anyServing();
    if (m == null) return;
    try {
      List<NodeInfo> nodes = clients.rm(m, RM_TIMEOUT).nodes(Set.of());
      long now = System.currentTimeMillis();
      for (NodeInfo n : nodes) {
        checker.observeRmNode(n.id(), now, orNone(n.usedResource()), orNone(n.totalResource()));
      }
    } catch (CallException e) {
      failedPolls.incrementAndGet();
    }
  }

  @Override
  public void close() {
    pool.shutdownNow();
    try {
      pool.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private Member anyServing() {
    List<Member> serving = cluster.serving();
    return serving.isEmpty() ? null : serving.get(random.nextInt(serving.size()));
  }

  static InvariantChecker.ContainerSeen seen(NodeContainerInfo c) {
    return new InvariantChecker.ContainerSeen(c.id() == null ? "" : c.id(), c.state() == null ? "" : c.state(),
        c.totalMemoryNeededMB(), c.totalVCoresNeeded(), c.exitCode());
  }

  private static Resource orNone(Resource r) {
    return r == null ? Resource.NONE : r;
  }
}
