package dev.bobbin.node.rm;

import dev.bobbin.protocol.node.NodeHeartbeatRequest;
import dev.bobbin.protocol.node.NodeHeartbeatResponse;
import dev.bobbin.protocol.node.RegisterNodeRequest;
import dev.bobbin.protocol.node.RegisterNodeResponse;
import java.util.concurrent.CompletionStage;

/**
 * The ResourceTracker calls of one RM member, addressed by its base URL. Failures complete the
 * stage with an {@link RmCallException}.
 */
public interface RmClient {
  CompletionStage<RegisterNodeResponse> register(String rmBaseUrl, RegisterNodeRequest request);

  CompletionStage<NodeHeartbeatResponse> heartbeat(String rmBaseUrl, NodeHeartbeatRequest request);
}
