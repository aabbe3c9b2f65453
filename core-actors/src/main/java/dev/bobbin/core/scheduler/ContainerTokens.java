package dev.bobbin.core.scheduler;

import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.keys.KeyPurpose;
import dev.bobbin.core.keys.SigningKeys;
import dev.bobbin.protocol.Tokens;
import dev.bobbin.protocol.am.Container;
import java.time.Clock;
import java.time.Duration;

/**
 * The containers and AM tokens a scheduler hands out, each signed with the key of its purpose that
 * signs now and naming it. Both carry the scheduler's epoch: a NodeManager refuses container
 * tokens of a scheduler older than one it has seen, and the RM honours an older scheduler's AM
 * token only while its attempt is still current.
 */
final class ContainerTokens {
  private final long epoch;
  private final SigningKeys keys;
  private final Duration lifetime;
  private final Clock clock;

  ContainerTokens(long epoch, SigningKeys keys, Duration lifetime, Clock clock) {
    this.epoch = epoch;
    this.keys = keys;
    this.lifetime = lifetime;
    this.clock = clock;
  }

  long epoch() {
    return epoch;
  }

  /** The allocation as its AM (or the launcher) gets it, with a container token for {@code user}. */
  Container container(ContainerEntity.Allocation a, String user) {
    long now = clock.millis();
    SigningKeys.SigningKey key = keys.signing(KeyPurpose.CONTAINER_TOKEN, now);
    String token = Tokens.containerToken(new Tokens.ContainerTokenIdentifier(a.containerId(), a.nodeId(), user,
        a.resource(), now + lifetime.toMillis(), epoch, key.id()), key.secret());
    return new Container(a.containerId(), a.nodeId(), a.nodeHttpAddress(), a.resource(), a.priority(), token,
        a.allocationRequestId());
  }

  String amToken(String attemptId, String user) {
    SigningKeys.SigningKey key = keys.signing(KeyPurpose.AM_TOKEN, clock.millis());
    return Tokens.amToken(new Tokens.AmTokenIdentifier(attemptId, user, key.id(), epoch), key.secret());
  }
}
