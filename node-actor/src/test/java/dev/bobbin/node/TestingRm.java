package dev.bobbin.node;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.NodeAction;
import dev.bobbin.protocol.RemoteException;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.Tokens;
import dev.bobbin.protocol.WireJson;
import dev.bobbin.protocol.WirePaths;
import dev.bobbin.protocol.node.ContainerTokenKey;
import dev.bobbin.protocol.node.NodeHeartbeatRequest;
import dev.bobbin.protocol.node.NodeHeartbeatResponse;
import dev.bobbin.protocol.node.RegisterNodeRequest;
import dev.bobbin.protocol.node.RegisterNodeResponse;
import dev.bobbin.protocol.node.UnregisterNodeRequest;
import dev.bobbin.protocol.node.UnregisterNodeResponse;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A fake RM for tests: answers register and heartbeat like YARN's ResourceTracker (responseId
 * check, RESYNC for unknown nodes), records every request and the node credential it carried,
 * hands out container-token keys (key {@link #KEY_ID} at first; in heartbeats, whenever the node
 * names an older newest key than {@link #keys} holds) and signs container tokens with them. Tests
 * steer it through its public fields.
 */
final class TestingRm implements AutoCloseable {
  static final long RM_IDENTIFIER = 1_700_000_000_000L;

  private final HttpServer server;
  private final ObjectMapper json = WireJson.mapper();
  static final int KEY_ID = 1;
  final byte[] key = new byte[32];
  /** The keys handed out, replaced by a test to roll them. */
  final AtomicReference<List<ContainerTokenKey>> keys = new AtomicReference<>();
  /** The node credential of every call, in order ("" when it carried none). */
  final List<String> credentials = new CopyOnWriteArrayList<>();
  final int heartbeatIntervalMs;

  final List<RegisterNodeRequest> registrations = new CopyOnWriteArrayList<>();
  final List<NodeHeartbeatRequest> heartbeats = new CopyOnWriteArrayList<>();
  final List<UnregisterNodeRequest> unregistrations = new CopyOnWriteArrayList<>();
  final AtomicInteger responseIdMismatches = new AtomicInteger();
  /** Acknowledge reported completions in the next response (containersToBeRemovedFromNm). */
  volatile boolean acknowledgeCompleted = true;
  /** When non-zero, every call is answered with this status and a RemoteException body. */
  volatile int failWithStatus;
  final Queue<String> containersToCleanup = new ConcurrentLinkedQueue<>();
  final Queue<String> applicationsToCleanup = new ConcurrentLinkedQueue<>();
  /** A one-shot action for the next heartbeat answer. */
  final AtomicReference<NodeAction> nextAction = new AtomicReference<>(NodeAction.NORMAL);
  private final Map<String, Integer> lastResponseId = new ConcurrentHashMap<>();
  /** The scheduler epoch every answer names (0: none). */
  volatile long epoch;
  /** The cluster every answer names ("": none). */
  volatile String clusterId = "";

  private TestingRm(int heartbeatIntervalMs) throws IOException {
    new SecureRandom().nextBytes(key);
    keys.set(List.of(new ContainerTokenKey(KEY_ID, Tokens.encodeKey(key), 0, 0)));
    this.heartbeatIntervalMs = heartbeatIntervalMs;
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(WirePaths.NM_REGISTER, this::register);
    server.createContext(WirePaths.NM_HEARTBEAT, this::heartbeat);
    server.createContext(WirePaths.NM_UNREGISTER, this::unregister);
    server.start();
  }

  static TestingRm start() {
    try {
      return new TestingRm(100);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  String containerToken(String containerId, String nodeId) {
    return containerToken(containerId, nodeId, "alice", Resource.of(256, 1), System.currentTimeMillis() + 600_000);
  }

  String containerToken(String containerId, String nodeId, String user, Resource resource, long expiryTimeMs) {
    return Tokens.containerToken(
        new Tokens.ContainerTokenIdentifier(containerId, nodeId, user, resource, expiryTimeMs, RM_IDENTIFIER, KEY_ID),
        key);
  }

  /** A container token of the scheduler of {@code schedulerEpoch}, signed with the key handed out. */
  String containerToken(String containerId, String nodeId, long schedulerEpoch) {
    return Tokens.containerToken(new Tokens.ContainerTokenIdentifier(containerId, nodeId, "alice", Resource.of(256, 1),
        System.currentTimeMillis() + 600_000, schedulerEpoch, KEY_ID), key);
  }

  /** Forgets every node, as a new cluster knows none: their next heartbeat is told to resync. */
  void forgetNodes() {
    lastResponseId.clear();
  }

  /** A container token signed with key {@code keyId}, which holds {@code secret}. */
  String containerToken(String containerId, String nodeId, int keyId, byte[] secret) {
    return Tokens.containerToken(new Tokens.ContainerTokenIdentifier(containerId, nodeId, "alice", Resource.of(256, 1),
        System.currentTimeMillis() + 600_000, RM_IDENTIFIER, keyId), secret);
  }

  /** The latest status a heartbeat carried for this container. */
  Optional<ContainerStatus> lastReported(String containerId) {
    List<NodeHeartbeatRequest> all = new ArrayList<>(heartbeats);
    for (int i = all.size() - 1; i >= 0; i--) {
      for (ContainerStatus s : all.get(i).containerStatuses()) {
        if (s.containerId().equals(containerId)) return Optional.of(s);
      }
    }
    return Optional.empty();
  }

  private void register(HttpExchange ex) throws IOException {
    if (failed(ex)) return;
    RegisterNodeRequest req = json.readValue(ex.getRequestBody(), RegisterNodeRequest.class);
    registrations.add(req);
    lastResponseId.put(req.nodeId(), 0);
    answer(ex, 200, new RegisterNodeResponse(NodeAction.NORMAL, "", RM_IDENTIFIER, heartbeatIntervalMs, keys.get(),
        epoch, clusterId));
  }

  private void heartbeat(HttpExchange ex) throws IOException {
    if (failed(ex)) return;
    NodeHeartbeatRequest req = json.readValue(ex.getRequestBody(), NodeHeartbeatRequest.class);
    heartbeats.add(req);
    Integer last = lastResponseId.get(req.nodeId());
    if (last == null) {
      answer(ex, 200, NodeHeartbeatResponse.resync("Node not found resyncing " + req.nodeId()));
      return;
    }
    if (req.responseId() != last) {
      responseIdMismatches.incrementAndGet();
      lastResponseId.remove(req.nodeId());
      answer(ex, 200, NodeHeartbeatResponse.resync("Too far behind rm response id:" + last));
      return;
    }
    NodeAction action = nextAction.getAndSet(NodeAction.NORMAL);
    if (action != NodeAction.NORMAL) {
      lastResponseId.remove(req.nodeId());
      answer(ex, 200, new NodeHeartbeatResponse(0, action, List.of(), List.of(), List.of(), 0, "told by test"));
      return;
    }
    List<String> acknowledged = acknowledgeCompleted
        ? req.containerStatuses().stream().filter(ContainerStatus::isComplete).map(ContainerStatus::containerId).toList()
        : List.of();
    lastResponseId.put(req.nodeId(), last + 1);
    List<ContainerTokenKey> handedOut = keys.get();
    int newest = handedOut.stream().mapToInt(ContainerTokenKey::keyId).max().orElse(0);
    answer(ex, 200, new NodeHeartbeatResponse(
        last + 1, NodeAction.NORMAL, drain(containersToCleanup), drain(applicationsToCleanup), acknowledged,
        heartbeatIntervalMs, "", epoch).withContainerTokenKeys(
            req.lastKnownContainerTokenKeyId() == newest ? List.of() : handedOut).withClusterId(clusterId));
  }

  private void unregister(HttpExchange ex) throws IOException {
    if (failed(ex)) return;
    UnregisterNodeRequest req = json.readValue(ex.getRequestBody(), UnregisterNodeRequest.class);
    unregistrations.add(req);
    lastResponseId.remove(req.nodeId());
    answer(ex, 200, new UnregisterNodeResponse(""));
  }

  private boolean failed(HttpExchange ex) throws IOException {
    String credential = ex.getRequestHeaders().getFirst(WirePaths.NODE_CREDENTIAL_HEADER);
    credentials.add(credential == null ? "" : credential);
    int status = failWithStatus;
    if (status == 0) return false;
    ex.getRequestBody().readAllBytes();
    answer(ex, status, RemoteException.of("org.apache.hadoop.yarn.exceptions.YarnRuntimeException", "down for test"));
    return true;
  }

  private static List<String> drain(Queue<String> q) {
    List<String> out = new ArrayList<>();
    for (String s; (s = q.poll()) != null; ) out.add(s);
    return out;
  }

  private void answer(HttpExchange ex, int status, Object body) throws IOException {
    byte[] bytes = json.writeValueAsBytes(body);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(status, bytes.length);
    try (var out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
