package dev.bobbin.protocol.client;

import dev.bobbin.protocol.WirePaths;
import dev.bobbin.protocol.node.NodeHeartbeatRequest;
import dev.bobbin.protocol.node.NodeHeartbeatResponse;
import dev.bobbin.protocol.node.RegisterNodeRequest;
import dev.bobbin.protocol.node.RegisterNodeResponse;
import dev.bobbin.protocol.node.UnregisterNodeRequest;
import dev.bobbin.protocol.node.UnregisterNodeResponse;
import java.util.concurrent.CompletableFuture;

/**
 * A NodeManager's calls to an RM member (YARN's ResourceTracker): register, heartbeat and unregister, each to
 * the member the caller chose. Stages fail with a {@link CallException}.
 */
public final class ResourceTrackerClient {
  private final BobbinHttp http;

  public ResourceTrackerClient(BobbinHttp http) {
    this.http = http;
  }

  public CompletableFuture<RegisterNodeResponse> register(String rmUrl, RegisterNodeRequest request) {
    return http.call(Call.post(rmUrl, WirePaths.NM_REGISTER, request), RegisterNodeResponse.class);
  }

  public CompletableFuture<NodeHeartbeatResponse> heartbeat(String rmUrl, NodeHeartbeatRequest request) {
    return http.call(Call.post(rmUrl, WirePaths.NM_HEARTBEAT, request), NodeHeartbeatResponse.class);
  }

  public CompletableFuture<UnregisterNodeResponse> unregister(String rmUrl, UnregisterNodeRequest request) {
    return http.call(Call.post(rmUrl, WirePaths.NM_UNREGISTER, request), UnregisterNodeResponse.class);
  }
}
