package dev.bobbin.bench;

import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.am.AllocateRequest;
import dev.bobbin.protocol.am.AllocateResponse;
import dev.bobbin.protocol.am.Container;
import dev.bobbin.protocol.am.RegisterAmRequest;
import dev.bobbin.protocol.am.ResourceRequest;
import dev.bobbin.protocol.client.AmProtocolClient;
import dev.bobbin.protocol.client.BobbinHttp;
import dev.bobbin.protocol.client.RemoteErrorException;
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
 * on the simulated NodeManagers for {@code holdNanos}, and asks again as they complete. Every AM
 * calls through {@link BenchHttp#TRANSPORT} with its own token, a few threads taking turns.
 */
final class SimAms implements AutoCloseable {
  private static final String NOT_REGISTERED = "ApplicationMasterNotRegisteredException";

  private static final class Am {
    final AmProtocolClient client;
    int responseId;
    int held;
    int lastAsked = -1;
    long due;
    boolean registered;

    Am(String token) {
      this.client = new AmProtocolClient(BenchHttp.TRANSPORT, token);
    }
  }

  final AtomicLong registered = new AtomicLong();
  final AtomicLong delivered = new AtomicLong();
  final AtomicLong completed = new AtomicLong();
  final AtomicLong allocates = new AtomicLong();
  final AtomicLong errors = new AtomicLong();
  final AtomicReference<String> lastError = new AtomicReference<>();
  final Latency latency = new Latency();
  private final String rmUrl;
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
    this.rmUrl = BenchHttp.rmUrl(rmPort);
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
    while (!stopped && System.nanoTime() < deadline) {
      for (Am a; (a = incoming.poll()) != null; ) {
        a.due = System.nanoTime();
        mine.add(a);
      }
      long earliest = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
      for (Am a : mine) {
        if (stopped) break;
        if (a.due <= System.nanoTime()) {
          if (!a.registered) register(a);
          else allocate(a);
          a.due = System.nanoTime() + intervalNanos;
        }
        earliest = Math.min(earliest, a.due);
      }
      long wait = earliest - System.nanoTime();
      if (wait > 0) LockSupport.parkNanos(wait);
    }
  }

  private void register(Am a) {
    try {
      BobbinHttp.await(a.client.register(rmUrl, new RegisterAmRequest("sim", 0, "")));
      a.registered = true;
      a.responseId = 0;
      a.lastAsked = -1;
      registered.incrementAndGet();
    } catch (RuntimeException e) {
      error(e);
    }
  }

  private void allocate(Am a) {
    int want = asking ? Math.max(0, target - a.held) : 0;
    List<ResourceRequest> ask = want == a.lastAsked ? List.of()
        : List.of(ResourceRequest.any(1, Topology.CONTAINER, want));
    try {
      var request = new AllocateRequest(a.responseId, 0.5f, ask, List.of());
      long t0 = System.nanoTime();
      AllocateResponse resp;
      try {
        resp = BobbinHttp.await(a.client.allocate(rmUrl, request));
      } catch (RemoteErrorException e) {
        answered(t0);
        if (NOT_REGISTERED.equals(e.exception())) a.registered = false;
        throw e;
      }
      answered(t0);
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
    } catch (RuntimeException e) {
      error(e);
    }
  }

  /** An allocate call the RM answered, with success or an error. */
  private void answered(long sentAt) {
    if (recordLatency) latency.add(System.nanoTime() - sentAt);
    allocates.incrementAndGet();
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
