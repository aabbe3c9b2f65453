package dev.bobbin.http.serving;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Address;
import org.apache.pekko.cluster.Cluster;
import org.apache.pekko.cluster.sharding.ClusterSharding;
import org.apache.pekko.cluster.sharding.ShardRegion;
import org.apache.pekko.pattern.Patterns;

/**
 * Whether this member's shard regions are up: each has registered with its shard coordinator, so
 * that shards can be allocated to it and messages for its entities are delivered, not buffered. A
 * region asked for the cluster's regions answers through its coordinator once it has registered,
 * and with none before.
 */
public final class ShardRegions {
  private final ActorSystem system;
  private final Duration timeout;

  /** @param timeout how long a region may take to answer; one that does not counts as not up */
  public ShardRegions(ActorSystem system, Duration timeout) {
    this.system = system;
    this.timeout = timeout;
  }

  /** The names of the regions not up, sorted; empty when all are. */
  public CompletionStage<List<String>> notUp() {
    ClusterSharding sharding = ClusterSharding.get(system);
    Address self = Cluster.get(system).selfAddress();
    List<CompletableFuture<Optional<String>>> each = sharding.getShardTypeNames().stream().sorted()
        .map(name -> Patterns.ask(sharding.shardRegion(name), ShardRegion.getCurrentRegionsInstance(), timeout)
            .toCompletableFuture()
            .handle((answer, e) -> answer instanceof ShardRegion.CurrentRegions r && r.getRegions().contains(self)
                ? Optional.<String>empty() : Optional.of(name)))
        .toList();
    return CompletableFuture.allOf(each.toArray(CompletableFuture[]::new))
        .thenApply(done -> each.stream().map(CompletableFuture::join).flatMap(Optional::stream).toList());
  }
}
