package dev.bobbin.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.protocol.Resource;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
  private final Http http;
  private final InvariantChecker checker;
  private final AppTracker tracker;
  private final Random random;
  private final AtomicInteger failedPolls = new AtomicInteger();
  private final ScheduledExecutorService pool = Executors.newScheduledThreadPool(4, r -> {
    Thread t = new Thread(r, "chaos-watch");
    t.setDaemon(true);
    return t;
  });

  Watchers(Cluster cluster, Http http, InvariantChecker checker, AppTracker tracker, Random random) {
    this.cluster = cluster;
    this.http = http;
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
        Http.Reply r = http.get(nm.url() + "/ws/v1/node/containers", NM_TIMEOUT);
        if (!r.ok()) {
          failedPolls.incrementAndGet();
          continue;
        }
        List<InvariantChecker.ContainerSeen> seen = new ArrayList<>();
        for (JsonNode c : r.json().path("containers").path("container")) {
          seen.add(new InvariantChecker.ContainerSeen(c.path("id").asText(), c.path("state").asText(),
              c.path("totalMemoryNeededMB").asLong(), c.path("totalVCoresNeeded").asInt(), c.path("exitCode").asInt()));
        }
        checker.observeNode(nm.nodeId(), System.currentTimeMillis(), nm.capacity(), seen);
      } catch (IOException e) {
        failedPolls.incrementAndGet();
      }
    }
  }

  void pollApps() {
    Member m = anyServing();
    if (m == null) return;
    try {
      Http.Reply r = http.get(m.url() + "/ws/v1/cluster/apps", RM_TIMEOUT);
      if (!r.ok()) {
        failedPolls.incrementAndGet();
        return;
      }
      for (JsonNode app : r.json().path("apps").path("app")) tracker.seen(app);
    } catch (IOException e) {
      failedPolls.incrementAndGet();
    }
  }

  void pollRmNodes() {
    Member m = anyServing();
    if (m == null) return;
    try {
      Http.Reply r = http.get(m.url() + "/ws/v1/cluster/nodes", RM_TIMEOUT);
      if (!r.ok()) {
        failedPolls.incrementAndGet();
        return;
      }
      long now = System.currentTimeMillis();
      for (JsonNode n : r.json().path("nodes").path("node")) {
        checker.observeRmNode(n.path("id").asText(), now, resource(n.path("usedResource")), resource(n.path("totalResource")));
      }
    } catch (IOException e) {
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

  private static Resource resource(JsonNode r) {
    return new Resource(r.path("memory").asLong(), r.path("vCores").asInt());
  }
}
