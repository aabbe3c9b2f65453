package dev.bobbin.core.scheduler;

import dev.bobbin.config.SchedulerSettings;
import dev.bobbin.core.app.ApplicationEntity;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.launch.AmLauncher;
import dev.bobbin.core.policy.SchedulingPolicy;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.RecipientRef;

/**
 * What the scheduler needs from its member: settings, secrets and the ports to entities and NMs.
 * {@code fair} is null when the FIFO policy runs; {@code fairReload} reads its configuration again
 * on the member that hosts the scheduler.
 */
public record SchedulerDeps(
    SchedulerSettings settings,
    SchedulingPolicy policy,
    long rmIdentifier,
    byte[] tokenSecret,
    Duration nmHeartbeatInterval,
    Duration nmExpiry,
    Duration amExpiry,
    Duration containerTokenLifetime,
    Duration askTimeout,
    Function<String, RecipientRef<ContainerEntity.Command>> containers,
    Function<String, RecipientRef<ApplicationEntity.Command>> applications,
    ActorRef<AmLauncher.Command> amLauncher,
    Clock clock,
    FairSetup fair,
    java.util.function.Supplier<FairSetup> fairReload,
    Duration recoveryWait,
    double recoveryMinNodeShare,
    java.util.function.Supplier<java.util.concurrent.CompletionStage<RecoveredModel>> recovery) {
  /** Whether the Fair policy runs; otherwise FIFO. */
  public boolean isFair() {
    return fair != null;
  }
}
