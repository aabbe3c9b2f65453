package dev.bobbin.am;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.FinalApplicationStatus;
import dev.bobbin.protocol.Ids;
import dev.bobbin.protocol.RemoteException;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.Tokens;
import dev.bobbin.protocol.WireJson;
import dev.bobbin.protocol.WirePaths;
import dev.bobbin.protocol.am.AllocateRequest;
import dev.bobbin.protocol.am.AllocateResponse;
import dev.bobbin.protocol.am.AmCommand;
import dev.bobbin.protocol.am.Container;
import dev.bobbin.protocol.am.FinishAmRequest;
import dev.bobbin.protocol.am.FinishAmResponse;
import dev.bobbin.protocol.am.RegisterAmResponse;
import dev.bobbin.protocol.am.ResourceRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fake RM speaking the AM protocol over real HTTP, as several "members" that share one state (as
 * every Bobbin RM member serves every endpoint). All requests are handled on one thread; tests
 * script it through thread-safe switches and read what it recorded.
 */
public final class TestingRm implements AutoCloseable {
  public static final byte[] SECRET = "testing-rm-secret".getBytes(StandardCharsets.UTF_8);
  public static final String APP_ID = Ids.applicationId(1_700_000_000_000L, 1);
  public static final String ATTEMPT_ID = Ids.attemptId(APP_ID, 1);
  public static final String AM_TOKEN = Tokens.amToken(new Tokens.AmTokenIdentifier(ATTEMPT_ID, "alice"), SECRET);

  /** One allocate call as the RM saw it: which member served it, during which registration. */
  public record Call(int member, int registration, AllocateRequest request) {}

  private final List<HttpServer> members = new ArrayList<>();
  private final ExecutorService thread = Executors.newSingleThreadExecutor();
  private final Resource maximum;
  private final List<String[]> nodes; // {nodeId, httpAddress}

  // Scripting, set from the test thread.
  public final AtomicInteger maxPerHeartbeat = new AtomicInteger(Integer.MAX_VALUE);
  /** How many more containers the RM may hand out. */
  public final AtomicInteger budget = new AtomicInteger(Integer.MAX_VALUE);
  public final AtomicBoolean forgetRegistration = new AtomicBoolean();
  public final AtomicBoolean sendResync = new AtomicBoolean();
  public final AtomicBoolean attemptGone = new AtomicBoolean();
  public final AtomicInteger loseNextAllocateResponses = new AtomicInteger();
  public final AtomicInteger finishesNotYetDurable = new AtomicInteger();
  private final Map<Integer, Boolean> unavailable = new ConcurrentHashMap<>();
  private final Map<Integer, Boolean> silent = new ConcurrentHashMap<>();
  /** Calls that reached a silent member, which never answered them. */
  public final AtomicInteger unanswered = new AtomicInteger();
  private final Queue<ContainerStatus> completions = new ConcurrentLinkedQueue<>();

  // Recorded, read from the test thread.
  public final List<Call> allocateCalls = new CopyOnWriteArrayList<>();
  public final List<FinishAmRequest> finishCalls = new CopyOnWriteArrayList<>();
  public final List<Container> handedOut = new CopyOnWriteArrayList<>();
  /** What registration lists as the containers earlier attempts left running. */
  public final List<Container> fromPreviousAttempts = new CopyOnWriteArrayList<>();
  public final AtomicInteger registrations = new AtomicInteger();
  public final AtomicInteger badTokens = new AtomicInteger();
  public final List<Integer> registerMembers = new CopyOnWriteArrayList<>();

  // RM state, touched only on the handler thread.
  private boolean registered;
  private int lastResponseId = -1;
  private AllocateResponse lastResponse;
  private final Map<String, ResourceRequest> outstanding = new LinkedHashMap<>();
  private final Map<String, Container> live = new LinkedHashMap<>();
  private long containerSequence = 1; // 1 is the AM container
  private int nextNode;

  private TestingRm(int memberCount, Resource maximum, List<String[]> nodes) throws IOException {
    this.maximum = maximum;
    this.nodes = nodes;
    for (int i = 0; i < memberCount; i++) members.add(startMember(i));
  }

  /** A fake RM with {@code members} addresses, placing containers round-robin on the given nodes. */
  public static TestingRm start(int members, Map<String, String> nodeIdToHttpAddress) throws IOException {
    List<String[]> nodes = new ArrayList<>();
    nodeIdToHttpAddress.forEach((id, http) -> nodes.add(new String[] {id, http}));
    return new TestingRm(members, Resource.of(8192, 8), nodes);
  }

  public static TestingRm start(int members) throws IOException {
    return start(members, Map.of("node1:45454", "node1:8042"));
  }

  public String address(int member) {
    return "http://127.0.0.1:" + members.get(member).getAddress().getPort();
  }

  public List<String> addresses() {
    List<String> all = new ArrayList<>();
    for (int i = 0; i < members.size(); i++) all.add(address(i));
    return all;
  }

  public AmClientSettings settings(List<String> addresses) {
    return AmClientSettings.of(addresses, AM_TOKEN, ATTEMPT_ID)
        .withHeartbeatInterval(java.time.Duration.ofMillis(50))
        .withRetries(
            java.time.Duration.ofSeconds(5), java.time.Duration.ofMillis(20), java.time.Duration.ofMillis(200),
            java.time.Duration.ofSeconds(20));
  }

  /** Stops a member for good: its port refuses connections. */
  public void kill(int member) {
    members.get(member).stop(0);
  }

  /** A member that answers 503 to everything. */
  public void setUnavailable(int member, boolean down) {
    unavailable.put(member, down);
  }

  /** A member that accepts every call and never answers it, as one whose requests hang. */
  public void setSilent(int member, boolean quiet) {
    silent.put(member, quiet);
  }

  /** Reports a container as finished in the next allocate response. */
  public void complete(String containerId, int exitStatus, String diagnostics) {
    completions.add(ContainerStatus.completed(containerId, exitStatus, diagnostics, null));
  }

  /** A loopback address nobody listens on. */
  public static String deadAddress() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return "http://127.0.0.1:" + s.getLocalPort();
    }
  }

  /** Total of every ANY ask the RM currently holds. */
  public int outstandingAny() throws Exception {
    return thread.submit(() -> outstanding.values().stream()
        .filter(r -> ResourceRequest.ANY.equals(r.resourceName()))
        .mapToInt(ResourceRequest::numContainers).sum()).get();
  }

  public List<ResourceRequest> asksSeen() {
    return allocateCalls.stream().flatMap(c -> c.request().ask().stream()).toList();
  }

  public List<String> releasesSeen() {
    return allocateCalls.stream().flatMap(c -> c.request().release().stream()).toList();
  }

  @Override
  public void close() {
    members.forEach(m -> m.stop(0));
    thread.shutdownNow();
  }

  // ---- HTTP

  private HttpServer startMember(int member) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(WirePaths.AM_REGISTER, ex -> handle(member, ex, this::register));
    server.createContext(WirePaths.AM_ALLOCATE, ex -> handle(member, ex, this::allocate));
    server.createContext(WirePaths.AM_FINISH, ex -> handle(member, ex, this::finish));
    server.setExecutor(thread);
    server.start();
    return server;
  }

  private interface Handler {
    Reply handle(int member, byte[] body) throws IOException;
  }

  private record Reply(int status, Object body) {}

  private void handle(int member, HttpExchange ex, Handler handler) throws IOException {
    if (silent.getOrDefault(member, false)) {
      unanswered.incrementAndGet();
      return; // left open: the caller waits until its request times out
    }
    try {
      byte[] body;
      try (InputStream in = ex.getRequestBody()) {
        body = in.readAllBytes();
      }
      Reply reply;
      if (unavailable.getOrDefault(member, false)) {
        reply = new Reply(503, error("ServiceUnavailableException", "member " + member + " is down"));
      } else if (!AM_TOKEN.equals(ex.getRequestHeaders().getFirst(WirePaths.AM_TOKEN_HEADER))) {
        badTokens.incrementAndGet();
        reply = new Reply(401, error("AuthorizationException", "Invalid AM token"));
      } else {
        reply = handler.handle(member, body);
      }
      byte[] out = WireJson.mapper().writeValueAsBytes(reply.body());
      ex.getResponseHeaders().set("Content-Type", "application/json");
      ex.sendResponseHeaders(reply.status(), out.length);
      try (OutputStream os = ex.getResponseBody()) {
        os.write(out);
      }
    } finally {
      ex.close();
    }
  }

  private static RemoteException error(String simpleName, String message) {
    return RemoteException.of("org.apache.hadoop.yarn.exceptions." + simpleName, message);
  }

  // ---- AM protocol

  private Reply register(int member, byte[] body) {
    registerMembers.add(member);
    if (attemptGone.get()) return new Reply(404, error(AmClient.ATTEMPT_NOT_FOUND, ATTEMPT_ID));
    if (registered) {
      return new Reply(400, error(AmClient.INVALID_REQUEST, "Application Master is already registered : " + APP_ID));
    }
    registered = true;
    lastResponseId = 0;
    lastResponse = null;
    outstanding.clear(); // a lost registration means the RM also lost the asks
    registrations.incrementAndGet();
    return new Reply(200, new RegisterAmResponse(maximum, "root.default", List.copyOf(fromPreviousAttempts)));
  }

  private Reply allocate(int member, byte[] body) throws IOException {
    AllocateRequest request = WireJson.mapper().readValue(body, AllocateRequest.class);
    allocateCalls.add(new Call(member, registrations.get(), request));
    if (attemptGone.get()) return new Reply(404, error(AmClient.ATTEMPT_NOT_FOUND, ATTEMPT_ID));
    if (forgetRegistration.getAndSet(false)) {
      registered = false;
      outstanding.clear();
    }
    if (!registered) {
      return new Reply(409, error(AmClient.NOT_REGISTERED, "AM is not registered for " + ATTEMPT_ID));
    }
    if (lastResponse != null && request.responseId() + 1 == lastResponseId) {
      return new Reply(200, lastResponse); // a resend: the previous answer, unchanged
    }
    if (request.responseId() != lastResponseId) {
      return new Reply(400, error(AmClient.INVALID_REQUEST, "Invalid responseId " + request.responseId()));
    }
    for (ResourceRequest ask : request.ask()) {
      if (!maximum.fits(ask.capability())) {
        return new Reply(400, error("InvalidResourceRequestException", "ask over maximum " + maximum));
      }
    }
    for (ResourceRequest ask : request.ask()) {
      String key = ask.priority() + "/" + ask.resourceName() + "/" + ask.capability() + "/" + ask.allocationRequestId();
      if (ask.numContainers() == 0) outstanding.remove(key);
      else outstanding.put(key, ask);
    }
    for (String id : request.release()) {
      if (live.remove(id) != null) {
        completions.add(ContainerStatus.completed(id, ExitStatus.ABORTED, "Container released by the AM", null));
      }
    }
    AmCommand command = null;
    if (sendResync.getAndSet(false)) {
      command = AmCommand.AM_RESYNC;
      registered = false;
      outstanding.clear();
    }
    List<Container> allocated = command == null ? allocateFromAsks() : List.of();
    List<ContainerStatus> completed = new ArrayList<>();
    ContainerStatus done = completions.poll();
    while (done != null) {
      live.remove(done.containerId());
      completed.add(done);
      done = completions.poll();
    }
    AllocateResponse response =
        new AllocateResponse(lastResponseId + 1, allocated, completed, Resource.of(4096, 4), nodes.size(), command);
    lastResponse = response;
    lastResponseId = response.responseId();
    if (loseNextAllocateResponses.get() > 0 && loseNextAllocateResponses.getAndDecrement() > 0) {
      return new Reply(502, error("BadGatewayException", "response lost on the way back"));
    }
    return new Reply(200, response);
  }

  private List<Container> allocateFromAsks() {
    List<Container> out = new ArrayList<>();
    for (Map.Entry<String, ResourceRequest> e : outstanding.entrySet()) {
      ResourceRequest ask = e.getValue();
      if (!ResourceRequest.ANY.equals(ask.resourceName())) continue;
      int n = ask.numContainers();
      while (n > 0 && out.size() < maxPerHeartbeat.get() && budget.get() > 0) {
        budget.decrementAndGet();
        out.add(newContainer(ask));
        n--;
      }
      e.setValue(new ResourceRequest(
          ask.priority(), ask.resourceName(), ask.capability(), n, ask.relaxLocality(), ask.allocationRequestId()));
    }
    outstanding.values().removeIf(r -> r.numContainers() == 0);
    return out;
  }

  private Container newContainer(ResourceRequest ask) {
    String id = Ids.containerId(ATTEMPT_ID, 0, ++containerSequence);
    String[] node = nodes.get(nextNode++ % nodes.size());
    String token = Tokens.containerToken(
        new Tokens.ContainerTokenIdentifier(id, node[0], "alice", ask.capability(), Long.MAX_VALUE, 1L), SECRET);
    Container c = new Container(id, node[0], node[1], ask.capability(), ask.priority(), token, ask.allocationRequestId());
    live.put(id, c);
    handedOut.add(c);
    return c;
  }

  private Reply finish(int member, byte[] body) throws IOException {
    FinishAmRequest request = WireJson.mapper().readValue(body, FinishAmRequest.class);
    if (!registered) {
      return new Reply(409, error(AmClient.NOT_REGISTERED, "AM is not registered for " + ATTEMPT_ID));
    }
    finishCalls.add(request);
    boolean durable = finishesNotYetDurable.getAndDecrement() <= 0;
    return new Reply(200, new FinishAmResponse(durable));
  }

  public FinalApplicationStatus lastFinalStatus() {
    return finishCalls.isEmpty() ? null : finishCalls.get(finishCalls.size() - 1).finalApplicationStatus();
  }
}
