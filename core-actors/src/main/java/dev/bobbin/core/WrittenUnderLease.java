package dev.bobbin.core;

import dev.bobbin.core.app.ApplicationEntity;
import dev.bobbin.core.app.ApplicationIdStamps;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.keys.MemberKeys;
import dev.bobbin.core.keys.TokenKeys;
import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.core.queue.QueueEntity;
import dev.bobbin.core.scheduler.EpochEntity;
import dev.bobbin.persistence.fence.WriteFence;
import java.util.List;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.cluster.sharding.typed.HashCodeMessageExtractor;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;

/**
 * Every entity the RM journals, with the lease its writes need: a sharded entity its shard's, the
 * scheduler's epoch the scheduler singleton's, the token keys their singleton's. Registered before
 * any of them starts, so no write of theirs ever goes unchecked.
 */
final class WrittenUnderLease {
  static final List<EntityTypeKey<?>> SHARDED = List.of(ApplicationEntity.TYPE_KEY, ContainerEntity.TYPE_KEY,
      NodeEntity.TYPE_KEY, QueueEntity.TYPE_KEY, ApplicationIdStamps.TYPE_KEY);

  private WrittenUnderLease() {}

  static void register(ActorSystem<?> system) {
    WriteFence fence = WriteFence.get(system);
    // Typed sharding's default: the entity id's hash modulo number-of-shards, as Entity.of uses.
    HashCodeMessageExtractor<Object> shards = new HashCodeMessageExtractor<>(
        system.settings().config().getInt("pekko.cluster.sharding.number-of-shards"));
    for (EntityTypeKey<?> type : SHARDED) fence.fenceShardedType(type.name(), shards::shardId);
    fence.fenceSingleton(EpochEntity.persistenceId(EpochEntity.DEFAULT_PARTITION).id(), RmCore.SCHEDULER);
    fence.fenceSingleton(TokenKeys.PERSISTENCE_ID.id(), MemberKeys.SINGLETON);
  }
}
