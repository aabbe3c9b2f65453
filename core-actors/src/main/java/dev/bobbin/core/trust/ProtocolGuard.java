package dev.bobbin.core.trust;

import dev.bobbin.core.keys.MemberTokens;
import dev.bobbin.core.scheduler.SchedulerProtocol;
import dev.bobbin.protocol.NodeAction;
import dev.bobbin.protocol.Tokens;
import dev.bobbin.protocol.am.AllocateResponse;
import dev.bobbin.protocol.node.ContainerTokenKey;
import dev.bobbin.protocol.node.NodeHeartbeatRequest;
import dev.bobbin.protocol.node.NodeHeartbeatResponse;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * What a member checks on the NodeManager and AM protocols before it acts on a call, and what it
 * adds to their answers: a node must prove it belongs to the cluster and come from an allowed host,
 * and is handed the container-token keys; an AM's token must check, and the AM is handed a new one
 * when an older key or scheduler signed its own.
 */
public final class ProtocolGuard {
  private final NodeTrust nodes;
  private final MemberTokens tokens;
  private final MemberTokens.Attempts attempts;

  /** @param attempts whether an attempt is still its application's current one */
  public ProtocolGuard(NodeTrust nodes, MemberTokens tokens, MemberTokens.Attempts attempts) {
    this.nodes = nodes;
    this.tokens = tokens;
    this.attempts = attempts;
  }

  /** Why a NodeManager's call is refused before anything else is done with it; empty when it proved itself. */
  public Optional<String> nodeRefusal(NodeProof proof) {
    return nodes.refusal(proof);
  }

  /** Why {@code host} may not register (the host lists); empty when it may. */
  public Optional<String> hostRefusal(String host) {
    return nodes.hosts().current().refusal(host);
  }

  /** The host lists this member checks registrations against. */
  public MemberHostLists hostLists() {
    return nodes.hosts();
  }

  /** The container-token keys a registering NodeManager gets, and the cluster's identity. */
  public CompletionStage<MemberTokens.NodeWelcome> nodeWelcome() {
    return tokens.nodeWelcome();
  }

  /**
   * The heartbeat's answer as the node gets it: naming the cluster, and with the container-token
   * keys when this member holds a newer one than the node named, so that every node has a new key
   * before it signs.
   */
  public NodeHeartbeatResponse withNodeKeys(NodeHeartbeatRequest req, NodeHeartbeatResponse resp) {
    if (resp.nodeAction() != NodeAction.NORMAL) return resp;
    NodeHeartbeatResponse named = resp.withClusterId(tokens.clusterId());
    List<ContainerTokenKey> keys = tokens.nodeKeysUnlessKnown(req.lastKnownContainerTokenKeyId());
    return keys.isEmpty() ? named : named.withContainerTokenKeys(keys);
  }

  /**
   * The attempt an AM token names; a stage failed with {@link Tokens.InvalidTokenException} for a
   * missing, forged, garbled or retired token, or one of an attempt that a failover ended.
   */
  public CompletionStage<Tokens.AmTokenIdentifier> verifyAmToken(String token) {
    return tokens.verifyAmToken(token, attempts);
  }

  /** An AM token for the attempt, for the client that runs its unmanaged AM. */
  public CompletionStage<String> amToken(String attemptId, String user) {
    return tokens.amToken(attemptId, user);
  }

  /** The allocate call's answer with a new AM token, when an older key or scheduler signed the caller's. */
  public SchedulerProtocol.AmOutcome<AllocateResponse> withRenewedAmToken(Tokens.AmTokenIdentifier caller,
      SchedulerProtocol.AmOutcome<AllocateResponse> outcome) {
    if (outcome.response() == null) return outcome;
    String renewed = tokens.renewedAmToken(caller);
    return renewed == null ? outcome
        : new SchedulerProtocol.AmOutcome<>(outcome.response().withAmRmToken(renewed), null, null);
  }
}
