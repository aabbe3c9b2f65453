package dev.bobbin.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.WireJson;
import dev.bobbin.protocol.WirePaths;
import dev.bobbin.protocol.am.AllocateRequest;
import dev.bobbin.protocol.am.AllocateResponse;
import dev.bobbin.protocol.am.Container;
import dev.bobbin.protocol.am.RegisterAmRequest;
import dev.bobbin.protocol.am.ResourceRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Simulated ApplicationMasters over the AM protocol: each registers with the AM token the RM put
 * in its container's environment, then allocates every interval, keeping {@code target}
 * containers: it asks for what it lacks (a total, as the protocol wants), starts what it is given
 * on the simulated NodeManagers for {@code holdNanos}, and asks again as they complete.
 */
final class SimAms implements AutoCloseable {
  private static final ObjectMapper JSON = WireJson.mapper();

  private static final class Am {
    final String token;
    int responseId;
    int held;
    int lastAsked = -1;
    long due;
    boolean registered;

    Am(String token) {
      this.token = token;
    }
  }

  final AtomicLong registered = new AtomicLong();
  final AtomicLong delivered = new AtomicLong();
  final AtomicLong completed = new AtomicLong();
  final AtomicLong allocates = new AtomicLong();
  final AtomicLong errors = new AtomicLong();
  final AtomicReference<String> lastError = new AtomicReference<>();
  final Latency latency = new Latency();
  private final int rmPort;
  private final SimNodes nodes;
  private final int target;
  private final long intervalNanos;
  private final long holdNanos;
  private final List<ConcurrentLinkedQueue<Am>> queues = new ArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean stopped;
  private volatile boolean recordLatency;
  /**
   * Until set, registered AMs heartbeat without asking: under FIFO the first applications' asks
   * would take every slot freed and leave the last AM containers unplaced (the set-up of one run
   * took over 9 minutes for 92 of 100 AMs).
   */
  private volatile boolean asking;
  private final java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();

  SimAms(int rmPort, SimNodes nodes, int threads, int target, long intervalNanos, long holdNanos, long deadline) {
    this.rmPort = rmPort;
    this.nodes = nodes;
    this.target = target;
    this.intervalNanos = intervalNanos;
    this.holdNanos = holdNanos;
    for (int t = 0; t < threads; t++) {
      ConcurrentLinkedQueue<Am> q = new ConcurrentLinkedQueue<>();
      queues.add(q);
      Thread th = new Thread(() -> loop(q, deadline), "sim-am-" + t);
      th.setDaemon(true);
      this.threads.add(th);
      th.start();
    }
  }

  /** An AM container started: its AM begins (called from the NodeManager stub). */
  void add(String amToken) {
    queues.get(Math.floorMod(next.getAndIncrement(), queues.size())).add(new Am(amToken));
  }

  void startAsking() {
    asking = true;
  }

  void recordLatency(boolean on) {
    recordLatency = on;
  }

  private void loop(ConcurrentLinkedQueue<Am> incoming, long deadline) {
    List<Am> mine = new ArrayList<>();
    try (HttpConn conn = new HttpConn("127.0.0.1", rmPort, 30_000)) {
      while (!stopped && System.nanoTime() < deadline) {
        for (Am a; (a = incoming.poll()) != null; ) {
          a.due = System.nanoTime();
          mine.add(a);
        }
        long earliest = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
        for (Am a : mine) {
          if (stopped) break;
          if (a.due <= System.nanoTime()) {
            if (!a.registered) register(conn, a);
            else allocate(conn, a);
            a.due = System.nanoTime() + intervalNanos;
          }
          earliest = Math.min(earliest, a.due);
        }
        long wait = earliest - System.nanoTime();
        if (wait > 0) LockSupport.parkNanos(wait);
      }
    }
  }

  private void register(HttpConn conn, Am a) {
    try {
      HttpConn.Reply r = conn.post(WirePaths.AM_REGISTER, JSON.writeValueAsBytes(new RegisterAmRequest("sim", 0, "")),
          WirePaths.AM_TOKEN_HEADER, a.token);
      if (!r.ok()) throw new IOException("register: HTTP " + r.status() + ": " + r.text());
      a.registered = true;
      a.responseId = 0;
      a.lastAsked = -1;
      registered.incrementAndGet();
    } catch (IOException | RuntimeException e) {
      error(e);
    }
  }

  private void allocate(HttpConn conn, Am a) {
    int want = asking ? Math.max(0, target - a.held) : 0;
    List<ResourceRequest> ask = want == a.lastAsked ? List.of()
        : List.of(ResourceRequest.any(1, Topology.CONTAINER, want));
    try {
      byte[] body = JSON.writeValueAsBytes(new AllocateRequest(a.responseId, 0.5f, ask, List.of()));
      long t0 = System.nanoTime();
      HttpConn.Reply r = conn.post(WirePaths.AM_ALLOCATE, body, WirePaths.AM_TOKEN_HEADER, a.token);
      if (recordLatency) latency.add(System.nanoTime() - t0);
      allocates.incrementAndGet();
      if (!r.ok()) {
        if (r.text().contains("ApplicationMasterNotRegisteredException")) a.registered = false;
        throw new IOException("allocate: HTTP " + r.status() + ": " + r.text());
      }
      AllocateResponse resp = JSON.readValue(r.body(), AllocateResponse.class);
      a.responseId = resp.responseId();
      if (!ask.isEmpty()) a.lastAsked = want;
      for (Container c : resp.allocatedContainers()) {
        a.held++;
        nodes.launch(c.nodeId(), c.id(), holdNanos);
      }
      delivered.addAndGet(resp.allocatedContainers().size());
      for (ContainerStatus s : resp.completedContainerStatuses()) {
        a.held = Math.max(0, a.held - 1);
        completed.incrementAndGet();
      }
    } catch (IOException | RuntimeException e) {
      error(e);
    }
  }

  private void error(Exception e) {
    errors.incrementAndGet();
    lastError.set(e.toString());
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
