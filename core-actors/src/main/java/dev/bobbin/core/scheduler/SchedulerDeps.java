package dev.bobbin.core.scheduler;

import dev.bobbin.config.SchedulerSettings;
import dev.bobbin.core.keys.SigningKeys;
import dev.bobbin.core.policy.PolicyConfig;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * What the scheduler needs from its member: settings, the keys it signs tokens with, the policy's
 * configuration, and its way to everything outside it.
 *
 * @param effects makes the scheduler's effects port; given the scheduler's context, so that the
 *     port can keep children of it (its epoch journal)
 * @param untrackedHost whether the host lists no longer track a host (YARN's untracked node)
 * @param untrackedRemoval how long a dead, untracked node stays in the node list
 */
public record SchedulerDeps(
    SchedulerSettings settings,
    PolicyConfig policy,
    SigningKeys keys,
    Duration nmHeartbeatInterval,
    Duration nmExpiry,
    Duration amExpiry,
    Duration containerTokenLifetime,
    Duration askTimeout,
    Clock clock,
    Duration recoveryWait,
    double recoveryMinNodeShare,
    Function<ActorContext<SchedulerProtocol.Command>, SchedulerEffects> effects,
    Predicate<String> untrackedHost,
    Duration untrackedRemoval) {

  /** Without host lists: no node is ever untracked. */
  public SchedulerDeps(SchedulerSettings settings, PolicyConfig policy, SigningKeys keys, Duration nmHeartbeatInterval,
      Duration nmExpiry, Duration amExpiry, Duration containerTokenLifetime, Duration askTimeout, Clock clock,
      Duration recoveryWait, double recoveryMinNodeShare,
      Function<ActorContext<SchedulerProtocol.Command>, SchedulerEffects> effects) {
    this(settings, policy, keys, nmHeartbeatInterval, nmExpiry, amExpiry, containerTokenLifetime, askTimeout, clock,
        recoveryWait, recoveryMinNodeShare, effects, host -> false, Duration.ofSeconds(60));
  }
}
