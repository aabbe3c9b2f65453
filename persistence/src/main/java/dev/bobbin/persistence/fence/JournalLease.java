package dev.bobbin.persistence.fence;

import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.coordination.lease.LeaseSettings;
import org.apache.pekko.coordination.lease.scaladsl.Lease;
import scala.Function1;
import scala.Option;
import scala.concurrent.Future;
import scala.jdk.javaapi.FutureConverters;
import scala.jdk.javaapi.OptionConverters;
import scala.runtime.BoxedUnit;

/**
 * Pekko Coordination's lease, kept in the journal's own database: what sharding and the cluster
 * singletons take before they start a shard or a singleton ({@code use-lease} in their settings),
 * and what {@link FencedJournalDao} checks before each write. The owner is this member's
 * incarnation ({@link WriteFence#ownerOf}), not Pekko's host:port, so a restarted member never
 * mistakes its predecessor's leases for its own.
 */
public final class JournalLease extends Lease {
  private final WriteFence fence;
  private final String name;
  /** {@code lease-operation-timeout}: how long taking or releasing the lease may take. */
  private final java.time.Duration operationTimeout;

  public JournalLease(LeaseSettings settings, ExtendedActorSystem system) {
    super(settings);
    this.fence = WriteFence.get(Adapter.toTyped(system));
    this.name = settings.leaseName();
    this.operationTimeout = java.time.Duration.ofNanos(settings.timeoutSettings().operationTimeout().toNanos());
  }

  @Override
  public Future<Object> acquire() {
    return acquire(lost -> BoxedUnit.UNIT);
  }

  @Override
  public Future<Object> acquire(Function1<Option<Throwable>, BoxedUnit> leaseLostCallback) {
    if (!fence.active()) {
      return scala.concurrent.Future$.MODULE$.failed(new IllegalStateException(
          "journal leases need a cluster member with bobbin.persistence.fencing.enabled = on"));
    }
    return FutureConverters.asScala(fence.acquire(name,
            (Optional<Throwable> why) -> leaseLostCallback.apply(OptionConverters.toScala(why)))
        .toCompletableFuture().orTimeout(operationTimeout.toMillis(), TimeUnit.MILLISECONDS)
        .thenApply(b -> (Object) b));
  }

  @Override
  public Future<Object> release() {
    return FutureConverters.asScala(fence.release(name).toCompletableFuture()
        .orTimeout(operationTimeout.toMillis(), TimeUnit.MILLISECONDS).thenApply(b -> (Object) b));
  }

  @Override
  public boolean checkLease() {
    return fence.holds(name);
  }
}
