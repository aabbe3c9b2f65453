package dev.bobbin.bench;

import dev.bobbin.protocol.CborSerializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.SnapshotSelectionCriteria;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;
import org.apache.pekko.persistence.typed.javadsl.Recovery;
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;

/**
 * The least an entity can do in Bobbin's design, for {@link JournalFloor}: sharded, event-sourced
 * on the RM's journal, and for each command it persists its events and answers. It has no rules
 * and no state beyond a count. Its two kinds are set up as the RM's Container entity (no tags, no
 * snapshots, recovery that does not ask the snapshot store) and Application entity (tagged events,
 * a snapshot every 100 events, recovery from the latest snapshot).
 */
final class FloorEntity extends EventSourcedBehaviorWithEnforcedReplies<FloorEntity.Write, FloorEntity.Written, Integer> {
  static final EntityTypeKey<Write> CONTAINER = EntityTypeKey.create(Write.class, "FloorContainer");
  static final EntityTypeKey<Write> APPLICATION = EntityTypeKey.create(Write.class, "FloorApplication");

  /** About as many bytes as a container's allocation event carries (ids, addresses, a resource). */
  private static final String PAYLOAD = "x".repeat(200);

  record Write(int events, ActorRef<Done> replyTo) implements CborSerializable {}

  record Written(String payload, long time) implements CborSerializable {}

  private final boolean application;

  private FloorEntity(EntityTypeKey<Write> kind, String id) {
    super(PersistenceId.of(kind.name(), id));
    this.application = kind == APPLICATION;
  }

  static FloorEntity create(EntityTypeKey<Write> kind, String id) {
    return new FloorEntity(kind, id);
  }

  @Override
  public Integer emptyState() {
    return 0;
  }

  @Override
  public CommandHandlerWithReply<Write, Written, Integer> commandHandler() {
    return newCommandHandlerWithReplyBuilder().forAnyState().onCommand(Write.class, (count, w) -> {
      List<Written> events = new ArrayList<>(w.events());
      for (int i = 0; i < w.events(); i++) events.add(new Written(PAYLOAD, System.currentTimeMillis()));
      return Effect().persist(events).thenReply(w.replyTo(), c -> Done.getInstance());
    }).build();
  }

  @Override
  public EventHandler<Integer, Written> eventHandler() {
    return newEventHandlerBuilder().forAnyState().onAnyEvent((count, e) -> count + 1);
  }

  @Override
  public Set<String> tagsFor(Written event) {
    return application ? Set.of("floor-application") : Set.of();
  }

  @Override
  public RetentionCriteria retentionCriteria() {
    return application ? RetentionCriteria.snapshotEvery(100, 2) : RetentionCriteria.disabled();
  }

  @Override
  public Recovery recovery() {
    return application ? super.recovery() : Recovery.withSnapshotSelectionCriteria(SnapshotSelectionCriteria.none());
  }
}
