package dev.bobbin.core.scheduler;

import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.protocol.Tokens;
import dev.bobbin.protocol.am.Container;
import java.time.Clock;
import java.time.Duration;

/**
 * The containers and AM tokens a scheduler hands out. Container tokens carry its epoch: a
 * NodeManager refuses tokens of a scheduler older than one it has seen.
 */
final class ContainerTokens {
  private final long epoch;
  private final byte[] secret;
  private final Duration lifetime;
  private final Clock clock;

  ContainerTokens(long epoch, byte[] secret, Duration lifetime, Clock clock) {
    this.epoch = epoch;
    this.secret = secret;
    this.lifetime = lifetime;
    this.clock = clock;
  }

  long epoch() {
    return epoch;
  }

  /** The allocation as its AM (or the launcher) gets it, with a container token for {@code user}. */
  Container container(ContainerEntity.Allocation a, String user) {
    long expiry = clock.millis() + lifetime.toMillis();
    String token = Tokens.containerToken(new Tokens.ContainerTokenIdentifier(a.containerId(), a.nodeId(), user,
        a.resource(), expiry, epoch), secret);
    return new Container(a.containerId(), a.nodeId(), a.nodeHttpAddress(), a.resource(), a.priority(), token,
        a.allocationRequestId());
  }

  String amToken(String attemptId, String user) {
    return Tokens.amToken(new Tokens.AmTokenIdentifier(attemptId, user), secret);
  }
}
