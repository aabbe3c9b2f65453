package dev.bobbin.bench;

import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.NodeAction;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.client.BobbinHttp;
import dev.bobbin.protocol.client.Credentials;
import dev.bobbin.protocol.client.ResourceTrackerClient;
import dev.bobbin.protocol.node.NodeHeartbeatRequest;
import dev.bobbin.protocol.node.NodeHeartbeatResponse;
import dev.bobbin.protocol.node.RegisterNodeRequest;
import dev.bobbin.protocol.node.RegisterNodeResponse;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Simulated NodeManagers over HTTP: each registers, then heartbeats (every interval the RM asks
 * for, or back to back), reporting its containers running and, once their time is up, completed
 * until the RM acknowledges them, as a real NodeManager does, through the NodeManagers' client of
 * the RM. A few threads share the nodes, each with one call in flight at a time (so one keep-alive
 * connection of {@link BenchHttp#TRANSPORT} each). Containers are "started" by the simulated AMs through
 * {@link #launch}, and AM containers by the RM through {@link NmStub}.
 */
final class SimNodes implements AutoCloseable {
  /**
   * @param interval null: the interval the RM hands out at registration; zero: back to back
   * @param httpAddress where the RM sends AM launches (an {@link NmStub})
   */
  record Options(int rmPort, int nodes, Resource capacity, String httpAddress, int threads, java.time.Duration interval) {
    Options onPort(int port) {
      return new Options(port, nodes, capacity, httpAddress, threads, interval);
    }
  }

  private record Launch(String containerId, long endAt) {}

  private static final class Node {
    final int index;
    final String id;
    int responseId;
    long due;
    long intervalNanos;
    final Map<String, Long> running = new LinkedHashMap<>();
    final Set<String> completed = new LinkedHashSet<>();
    final ConcurrentLinkedQueue<Launch> incoming = new ConcurrentLinkedQueue<>();

    Node(int index) {
      this.index = index;
      this.id = Topology.nodeId(index);
    }
  }

  final AtomicLong heartbeats = new AtomicLong();
  final AtomicLong errors = new AtomicLong();
  final AtomicLong completedReported = new AtomicLong();
  final AtomicReference<String> lastError = new AtomicReference<>();
  final Latency latency = new Latency();
  private final Options o;
  private final ResourceTrackerClient tracker = new ResourceTrackerClient(
      BenchHttp.TRANSPORT.withCredentials(Credentials.nodeCredential(BenchHttp.NODE_CREDENTIAL)));
  final SimKeys keys;
  private final String rmUrl;
  private final Node[] nodes;
  private final Map<String, Node> byId = new java.util.HashMap<>();
  private final List<Thread> threads = new ArrayList<>();
  private final CountDownLatch registered;
  private volatile boolean stopped;
  private volatile boolean recordLatency;
  /** When not negative, every node's heartbeat interval (0: back to back), whatever the RM said. */
  private volatile long paceNanos = -1;
  private long startedNanos;
  private double registerSeconds;

  SimNodes(Options o) {
    this(o, new SimKeys());
  }

  /** @param keys where the container-token keys the nodes are handed go */
  SimNodes(Options o, SimKeys keys) {
    this.o = o;
    this.keys = keys;
    this.rmUrl = BenchHttp.rmUrl(o.rmPort());
    this.nodes = new Node[o.nodes()];
    for (int i = 0; i < nodes.length; i++) {
      nodes[i] = new Node(i);
      byId.put(nodes[i].id, nodes[i]);
    }
    this.registered = new CountDownLatch(o.threads());
  }

  /** Starts the threads; each registers its nodes, then heartbeats until {@link #close}. */
  void start(long deadlineNanos) {
    startedNanos = System.nanoTime();
    for (int t = 0; t < o.threads(); t++) {
      int first = t;
      Thread th = new Thread(() -> loop(first, deadlineNanos), "sim-nm-" + t);
      th.setDaemon(true);
      threads.add(th);
      th.start();
    }
  }

  /** Waits until every node has registered; false on timeout. */
  boolean awaitRegistered(long seconds) throws InterruptedException {
    if (!registered.await(seconds, TimeUnit.SECONDS)) return false;
    registerSeconds = (System.nanoTime() - startedNanos) / 1e9;
    return true;
  }

  /** How long registering every node took, once {@link #awaitRegistered} has returned true. */
  double registerSeconds() {
    return registerSeconds;
  }

  void recordLatency(boolean on) {
    recordLatency = on;
  }

  /** From now on, each node heartbeats every {@code interval} (zero: back to back). */
  void pace(java.time.Duration interval) {
    paceNanos = interval.toNanos();
  }

  /** A container starts on its node now and runs {@code holdNanos} (Long.MAX_VALUE: until the end). */
  void launch(String nodeId, String containerId, long holdNanos) {
    Node n = byId.get(nodeId);
    if (n == null) return;
    long now = System.nanoTime();
    n.incoming.add(new Launch(containerId, holdNanos == Long.MAX_VALUE ? Long.MAX_VALUE : now + holdNanos));
  }

  int nodes() {
    return nodes.length;
  }

  private void loop(int first, long deadline) {
    List<Node> mine = new ArrayList<>();
    for (int i = first; i < nodes.length; i += o.threads()) mine.add(nodes[i]);
    boolean counted = false;
    try {
      for (Node n : mine) {
        while (!stopped && System.nanoTime() < deadline && !register(n)) sleepMillis(200);
      }
      registered.countDown();
      counted = true;
      // Spread the first heartbeats over one interval.
      long now = System.nanoTime();
      for (int k = 0; k < mine.size(); k++) {
        Node n = mine.get(k);
        n.due = now + (n.intervalNanos == 0 ? 0 : n.intervalNanos * k / Math.max(1, mine.size()));
      }
      while (!stopped && System.nanoTime() < deadline) {
        long earliest = Long.MAX_VALUE;
        for (Node n : mine) {
          if (stopped) break;
          now = System.nanoTime();
          if (n.due <= now) {
            heartbeat(n);
            long iv = paceNanos >= 0 ? paceNanos : n.intervalNanos;
            n.due = iv == 0 ? 0 : Math.max(n.due + iv, System.nanoTime() - iv);
          }
          earliest = Math.min(earliest, n.due);
        }
        long wait = earliest - System.nanoTime();
        if (wait > 0) LockSupport.parkNanos(Math.min(wait, TimeUnit.MILLISECONDS.toNanos(50)));
      }
    } finally {
      if (!counted) registered.countDown();
    }
  }

  private boolean register(Node n) {
    RegisterNodeRequest req = new RegisterNodeRequest(n.id, Topology.nodeHost(n.index), 45454, o.httpAddress(),
        Topology.rack(n.index), o.capacity(), statuses(n), List.of(), "bench");
    try {
      RegisterNodeResponse resp = BobbinHttp.await(tracker.register(rmUrl, req));
      if (resp.nodeAction() != NodeAction.NORMAL) throw new IllegalStateException("refused: " + resp.diagnostics());
      keys.handedOut(resp.containerTokenKeys());
      n.responseId = 0;
      n.intervalNanos = o.interval() != null ? o.interval().toNanos()
          : TimeUnit.MILLISECONDS.toNanos(Math.max(1, resp.heartbeatIntervalMs()));
      return true;
    } catch (RuntimeException e) {
      error(e);
      return false;
    }
  }

  private void heartbeat(Node n) {
    long now = System.nanoTime();
    for (Launch l; (l = n.incoming.poll()) != null; ) n.running.put(l.containerId(), l.endAt());
    for (Iterator<Map.Entry<String, Long>> it = n.running.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, Long> e = it.next();
      if (e.getValue() <= now) {
        it.remove();
        n.completed.add(e.getKey());
      }
    }
    try {
      var request = new NodeHeartbeatRequest(n.id, n.responseId, statuses(n), true, "", keys.newest());
      long t0 = System.nanoTime();
      NodeHeartbeatResponse resp = BobbinHttp.await(tracker.heartbeat(rmUrl, request));
      if (recordLatency) latency.add(System.nanoTime() - t0);
      heartbeats.incrementAndGet();
      if (resp.nodeAction() == NodeAction.RESYNC) {
        register(n);
        return;
      }
      n.responseId = resp.responseId();
      keys.handedOut(resp.containerTokenKeys());
      for (String id : resp.containersToBeRemovedFromNm()) {
        if (n.completed.remove(id)) completedReported.incrementAndGet();
      }
      for (String id : resp.containersToCleanup()) {
        if (n.running.remove(id) != null) n.completed.add(id);
      }
    } catch (RuntimeException e) {
      error(e);
      sleepMillis(50);
    }
  }

  private List<ContainerStatus> statuses(Node n) {
    List<ContainerStatus> out = new ArrayList<>(n.running.size() + n.completed.size());
    for (String id : n.running.keySet()) out.add(ContainerStatus.running(id, Topology.CONTAINER));
    for (String id : n.completed) out.add(ContainerStatus.completed(id, ExitStatus.SUCCESS, "", Topology.CONTAINER));
    return out;
  }

  private void error(Exception e) {
    errors.incrementAndGet();
    lastError.set(e.toString());
  }

  private static void sleepMillis(long ms) {
    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(ms));
  }

  @Override
  public void close() {
    stopped = true;
    for (Thread t : threads) {
      try {
        t.join(35_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
