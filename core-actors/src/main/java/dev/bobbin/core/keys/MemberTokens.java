package dev.bobbin.core.keys;

import dev.bobbin.protocol.Tokens;
import dev.bobbin.protocol.Tokens.AmTokenIdentifier;
import dev.bobbin.protocol.node.ContainerTokenKey;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * What a member checks and hands out with the cluster's keys: AM tokens verified on every AM call,
 * AM tokens renewed for AMs whose token an older key or an older scheduler signed, and the
 * container-token keys NodeManagers get (never an AM-token key).
 */
public final class MemberTokens {
  /** Whether an attempt is still its application's current one. */
  @FunctionalInterface
  public interface Attempts {
    CompletionStage<Boolean> isCurrent(String attemptId);
  }

  private final HeldKeys keys;
  private final Clock clock;

  public MemberTokens(MemberKeys keys, Clock clock) {
    this((HeldKeys) keys, clock);
  }

  MemberTokens(HeldKeys keys, Clock clock) {
    this.keys = keys;
    this.clock = clock;
  }

  /**
   * The attempt an AM token names, once its signature checks with a key that still verifies, and,
   * for a token of an earlier scheduler (issued before a failover), once its attempt is still the
   * current one: a failover that ended the attempt leaves its token worthless.
   *
   * @return a stage failed with {@link Tokens.InvalidTokenException} when the token is refused
   */
  public CompletionStage<AmTokenIdentifier> verifyAmToken(String token, Attempts attempts) {
    KeySnapshot held = keys.held();
    if (held == null) return keys.refresh().thenCompose(s -> checked(token, s, attempts, true));
    return checked(token, held, attempts, true);
  }

  private CompletionStage<AmTokenIdentifier> checked(String token, KeySnapshot s, Attempts attempts,
      boolean mayRefresh) {
    AmTokenIdentifier id;
    try {
      id = Tokens.verifyAmToken(token, s.verifying(KeyPurpose.AM_TOKEN, clock.millis()));
    } catch (Tokens.UnknownKeyException e) {
      // A key newer than this copy: made since the last change this member heard of.
      if (mayRefresh && e.keyId() > s.ring.lastKeyId()) {
        return keys.refresh().thenCompose(fresh -> checked(token, fresh, attempts, false));
      }
      return CompletableFuture.failedFuture(e);
    } catch (Tokens.InvalidTokenException e) {
      return CompletableFuture.failedFuture(e);
    }
    long epoch = s.ring.schedulerEpoch();
    if (id.epoch() >= epoch) {
      if (id.epoch() > epoch) keys.refresh();
      return CompletableFuture.completedFuture(id);
    }
    AmTokenIdentifier verified = id;
    return attempts.isCurrent(id.attemptId()).thenCompose(current -> current
        ? CompletableFuture.completedFuture(verified)
        : CompletableFuture.failedFuture(new Tokens.InvalidTokenException("the AM token of " + verified.attemptId()
            + " was issued by scheduler epoch " + verified.epoch() + " and its attempt is no longer current (epoch "
            + epoch + ")")));
  }

  /**
   * A new AM token for the AM that called with {@code id}, when an older key or an older scheduler
   * signed its token; null when its token is current.
   */
  public String renewedAmToken(AmTokenIdentifier id) {
    KeySnapshot s = keys.held();
    if (s == null) return null;
    SigningKeys.SigningKey key = s.signing(KeyPurpose.AM_TOKEN, clock.millis());
    long epoch = Math.max(id.epoch(), s.ring.schedulerEpoch());
    if (key.id() == id.keyId() && id.epoch() == epoch) return null;
    return Tokens.amToken(new AmTokenIdentifier(id.attemptId(), id.user(), key.id(), epoch), key.secret());
  }

  /**
   * An AM token for the attempt, signed as the scheduler signs the one it puts in a launched AM's
   * environment: what the client running an unmanaged AM registers with.
   */
  public CompletionStage<String> amToken(String attemptId, String user) {
    return keys.current().thenApply(s -> {
      SigningKeys.SigningKey key = s.signing(KeyPurpose.AM_TOKEN, clock.millis());
      return Tokens.amToken(new AmTokenIdentifier(attemptId, user, key.id(), s.ring.schedulerEpoch()), key.secret());
    });
  }

  /** The container-token keys a registering NodeManager gets, and the cluster it registers with. */
  public CompletionStage<NodeWelcome> nodeWelcome() {
    return keys.current().thenApply(s -> new NodeWelcome(s.forNodes(clock.millis()), s.ring.clusterId()));
  }

  /** What a NodeManager is handed when it registers. */
  public record NodeWelcome(List<ContainerTokenKey> keys, String clusterId) {}

  /** The cluster's identity as this member holds it; "" before it holds the keys. */
  public String clusterId() {
    KeySnapshot s = keys.held();
    return s == null ? "" : s.ring.clusterId();
  }

  /**
   * The container-token keys for a NodeManager whose newest is {@code lastKnownKeyId}: all of them
   * when this member holds another newest one, else none (nothing to send).
   */
  public List<ContainerTokenKey> nodeKeysUnlessKnown(int lastKnownKeyId) {
    KeySnapshot s = keys.held();
    if (s == null || s.newestContainerKeyId() == lastKnownKeyId) return List.of();
    return s.forNodes(clock.millis());
  }
}
