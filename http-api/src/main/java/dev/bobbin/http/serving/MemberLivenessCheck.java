package dev.bobbin.http.serving;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.cluster.Cluster;

/**
 * Pekko Management's liveness check of an RM member ({@code
 * pekko.management.health-checks.liveness-checks}): alive while its actor system answers (the check
 * runs on it, within {@code check-timeout}) and the cluster has not removed it. A member still
 * joining, cut off from the others, or without its journal is alive: it serves again by itself once
 * they are back, and restarting it would only lose time. One the cluster downed stops for good and
 * is worth restarting.
 */
public final class MemberLivenessCheck implements Supplier<CompletionStage<Boolean>> {
  private final Cluster cluster;

  public MemberLivenessCheck(ActorSystem system) {
    this.cluster = Cluster.get(system);
  }

  @Override
  public CompletionStage<Boolean> get() {
    if (cluster.isTerminated()) {
      return CompletableFuture.failedFuture(new NotReady(ServeGate.STANDBY,
          List.of("this member was removed from the cluster (downed, or it left) and is stopping")));
    }
    return CompletableFuture.completedFuture(true);
  }
}
