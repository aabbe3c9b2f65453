package dev.bobbin.node;

import dev.bobbin.protocol.Ids;
import dev.bobbin.protocol.Tokens;
import dev.bobbin.protocol.Tokens.ContainerTokenIdentifier;
import dev.bobbin.protocol.node.ContainerManagement.FailedRequest;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Checks the RM-issued container token that every container-management request carries. Starting
 * needs an unexpired token; stopping and querying a running container do not, since a container
 * outlives its token.
 */
public final class ContainerTokenCheck {
  public static final String INVALID_TOKEN = "InvalidToken";

  private ContainerTokenCheck() {}

  public sealed interface Verdict {}

  public record Valid(ContainerTokenIdentifier identifier) implements Verdict {}

  public record Refused(FailedRequest failure) implements Verdict {}

  public static Verdict forStart(String token, byte[] key, String nodeId, long nowMs) {
    return forStart(token, keyId -> key, nodeId, nowMs, 0);
  }

  public static Verdict forStart(String token, byte[] key, String nodeId, long nowMs, long minEpoch) {
    return forStart(token, keyId -> key, nodeId, nowMs, minEpoch);
  }

  /**
   * @param minEpoch the highest scheduler epoch the node has heard from: a token of an older
   *     scheduler (one that lives on in a member the cluster has already downed) is refused
   * @param keys the keys that may start containers now: a token signed with a retired key is refused
   */
  public static Verdict forStart(String token, Tokens.KeyLookup keys, String nodeId, long nowMs, long minEpoch) {
    Verdict v = forManagement(token, keys, nodeId);
    if (v instanceof Valid valid && valid.identifier().expiryTimeMs() < nowMs) {
      ContainerTokenIdentifier id = valid.identifier();
      return refuse(id.containerId(), "This token is expired. current time is " + nowMs + " found "
          + id.expiryTimeMs());
    }
    if (v instanceof Valid valid && valid.identifier().rmIdentifier() < minEpoch) {
      ContainerTokenIdentifier id = valid.identifier();
      return refuse(id.containerId(), "Container token of " + id.containerId() + " comes from scheduler epoch "
          + id.rmIdentifier() + ", older than epoch " + minEpoch + " this node already follows");
    }
    return v;
  }

  public static Verdict forManagement(String token, byte[] key, String nodeId) {
    return forManagement(token, keyId -> key, nodeId);
  }

  public static Verdict forManagement(String token, Tokens.KeyLookup keys, String nodeId) {
    ContainerTokenIdentifier id;
    try {
      id = Tokens.verifyContainerToken(token, keys);
    } catch (Tokens.InvalidTokenException e) {
      return refuse(claimedContainerId(token), "Invalid container token: " + e.getMessage());
    }
    if (!nodeId.equals(id.nodeId())) {
      return refuse(id.containerId(), "Given Container " + id.containerId()
          + " identifier is not valid for current Node manager. Expected : " + nodeId + " Found : " + id.nodeId());
    }
    if (!Ids.isContainerId(id.containerId())) {
      return refuse(id.containerId(), "Invalid container id in token: " + id.containerId());
    }
    if (id.user() == null || id.user().isBlank() || id.resource() == null || id.resource().isNegative()) {
      return refuse(id.containerId(), "Container token of " + id.containerId() + " names no user or a negative resource");
    }
    return new Valid(id);
  }

  /**
   * The container id an unverified token claims, so the caller can match the refusal to its
   * request; null when the token does not even parse.
   */
  static String claimedContainerId(String token) {
    if (token == null) return null;
    int dot = token.indexOf('.');
    try {
      String payload = new String(Base64.getUrlDecoder().decode(dot < 0 ? token : token.substring(0, dot)),
          StandardCharsets.UTF_8);
      String first = payload.split("\\|", 2)[0];
      return Ids.isContainerId(first) ? first : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static Refused refuse(String containerId, String message) {
    return new Refused(new FailedRequest(containerId, INVALID_TOKEN, message));
  }
}
