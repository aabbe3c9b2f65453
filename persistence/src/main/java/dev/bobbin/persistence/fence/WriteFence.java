package dev.bobbin.persistence.fence;

import dev.bobbin.persistence.JournalDatabase;
import dev.bobbin.persistence.PersistenceSettings;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.Extension;
import org.apache.pekko.actor.typed.ExtensionId;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.cluster.ClusterActorRefProvider;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.UniqueAddress;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This member's side of journal fencing: the leases it holds (taken for Pekko's shards and
 * singletons through {@link JournalLease}), their renewal, which lease covers which persistence
 * id, and the fencing of members the cluster downed.
 *
 * <p>The member writes an entity's events only while it holds the entity's lease in the journal's
 * database, checked in the write's own transaction ({@link FencedJournalDao}). The survivors take a
 * downed member's leases at once ({@link LeaseTable#fence}), so its shards start elsewhere without
 * waiting for the leases to expire, and nothing it writes afterwards commits. A member that cannot
 * reach a majority stops renewing, so its leases also run out on their own after their
 * time to live if no survivor could fence it. docs/fencing.md has the timing argument.
 */
public final class WriteFence implements Extension {
  private static final Logger log = LoggerFactory.getLogger(WriteFence.class);

  public static final ExtensionId<WriteFence> ID = new ExtensionId<>() {
    @Override
    public WriteFence createExtension(ActorSystem<?> system) {
      return new WriteFence(system);
    }
  };

  private record Held(long fencing, Consumer<Optional<Throwable>> lost) {}

  private final ActorSystem<?> system;
  private final boolean active;
  private final String owner;
  private final long ttlMillis;
  private final scala.concurrent.ExecutionContextExecutor blocking;
  private final Map<String, Held> held = new ConcurrentHashMap<>();
  private final Map<String, Function<String, String>> shardedTypes = new ConcurrentHashMap<>();
  private final Map<String, String> singletons = new ConcurrentHashMap<>();
  private volatile String closed;
  private volatile boolean renewing = true;

  public static WriteFence get(ActorSystem<?> system) {
    return ID.apply(system);
  }

  private WriteFence(ActorSystem<?> system) {
    this.system = system;
    PersistenceSettings.Fencing settings = PersistenceSettings.from(system.settings().config()).fencing();
    this.active = settings.enabled() && Adapter.toClassic(system).provider() instanceof ClusterActorRefProvider;
    this.ttlMillis = settings.leaseTtl().toMillis();
    this.blocking = system.dispatchers().lookup(DispatcherSelector.blocking());
    if (active) {
      UniqueAddress self = org.apache.pekko.cluster.Cluster.get(Adapter.toClassic(system)).selfUniqueAddress();
      this.owner = ownerOf(self);
      Duration every = settings.renewInterval();
      system.scheduler().scheduleWithFixedDelay(every, every, this::renewInBackground, blocking);
      system.systemActorOf(MembershipFencer.create(this, self), "journal-fencer", Props.empty());
    } else {
      this.owner = "";
    }
  }

  /** How a member incarnation is named in the lease table and in {@code event_journal.writer}. */
  public static String ownerOf(UniqueAddress member) {
    return member.address().hostPort() + "#" + member.longUid();
  }

  static String ownerOf(Member member) {
    return ownerOf(member.uniqueAddress());
  }

  /** Whether writes are fenced on this member (fencing on, and the member is in a cluster). */
  public boolean active() {
    return active;
  }

  /** This incarnation's name as a lease owner and journal writer. */
  public String owner() {
    return owner;
  }

  /**
   * The events of {@code typeName}'s sharded entities ({@code PersistenceId.of(typeName, id)}) are
   * written only under their shard's lease; {@code shardIdOf} is the sharding's entity-to-shard
   * function.
   */
  public void fenceShardedType(String typeName, Function<String, String> shardIdOf) {
    shardedTypes.put(typeName, shardIdOf);
  }

  /** The events of {@code persistenceId} are written only under the lease of the named singleton. */
  public void fenceSingleton(String persistenceId, String singletonName) {
    singletons.put(persistenceId, singletonName);
  }

  /** The lease that covers {@code persistenceId}, or null if its writes are not fenced. */
  String leaseOf(String persistenceId) {
    String singleton = singletons.get(persistenceId);
    if (singleton != null) return singletonLease(singleton);
    int bar = persistenceId.indexOf('|');
    if (bar < 0) return null;
    Function<String, String> shardIdOf = shardedTypes.get(persistenceId.substring(0, bar));
    if (shardIdOf == null) return null;
    String type = persistenceId.substring(0, bar);
    return system.name() + "-shard-" + type + "-" + shardIdOf.apply(persistenceId.substring(bar + 1));
  }

  /** Pekko's name for a typed cluster singleton's lease (its manager's path). */
  String singletonLease(String singletonName) {
    return system.name() + "-singleton-pekko://" + system.name() + "/system/singletonManager" + singletonName;
  }

  /**
   * The leases a batch of writes needs, each held by this member as far as it knows; refuses the
   * batch at once when one is not (or the member was downed), without asking the database.
   */
  Set<String> leasesFor(Collection<String> persistenceIds) {
    Set<String> names = new HashSet<>();
    for (String pid : persistenceIds) {
      String lease = leaseOf(pid);
      if (lease == null) continue;
      String why = closed;
      if (why != null) throw new JournalWriteFenced("journal write for " + pid + " refused: " + why);
      if (!held.containsKey(lease)) {
        throw new JournalWriteFenced("journal write for " + pid + " refused: this member does not hold lease " + lease);
      }
      names.add(lease);
    }
    return names;
  }

  /**
   * Checks, inside the write's transaction, that the database agrees this member holds every one
   * of {@code names} unexpired under the fencing counter it acquired, and locks them against a
   * fence until the transaction ends.
   */
  void verify(Connection conn, Set<String> names) throws SQLException {
    Map<String, Long> live = LeaseTable.live(conn, owner, names);
    for (String name : names) {
      Held h = held.get(name);
      Long fencing = live.get(name);
      if (h == null || fencing == null || fencing != h.fencing()) {
        throw new JournalWriteFenced("journal write refused: the journal does not show lease " + name
            + " held by " + owner + (h == null ? "" : " under fencing counter " + h.fencing())
            + " and unexpired (it expired, or another member took it)");
      }
    }
  }

  CompletionStage<Boolean> acquire(String name, Consumer<Optional<Throwable>> lost) {
    return CompletableFuture.supplyAsync(() -> {
      if (closed != null) return false;
      try (Connection conn = connection()) {
        var fencing = LeaseTable.acquire(conn, name, owner, ttlMillis);
        if (fencing.isEmpty()) {
          log.debug("Lease {} is held by another member", name);
          return false;
        }
        held.put(name, new Held(fencing.getAsLong(), lost));
        log.debug("Took lease {} with fencing counter {}", name, fencing.getAsLong());
        return true;
      } catch (SQLException e) {
        throw new IllegalStateException("could not take lease " + name + ": " + e.getMessage(), e);
      }
    }, blocking);
  }

  CompletionStage<Boolean> release(String name) {
    Held h = held.remove(name);
    if (h == null) return CompletableFuture.completedFuture(false);
    return CompletableFuture.supplyAsync(() -> {
      try (Connection conn = connection()) {
        return LeaseTable.release(conn, name, owner, h.fencing());
      } catch (SQLException e) {
        throw new IllegalStateException("could not release lease " + name + ": " + e.getMessage(), e);
      }
    }, blocking);
  }

  boolean holds(String name) {
    return closed == null && held.containsKey(name);
  }

  /** Extends this member's leases now; a lease the journal no longer shows as ours is lost. */
  CompletionStage<Void> renewNow() {
    return CompletableFuture.runAsync(this::renew, blocking);
  }

  private void renewInBackground() {
    try {
      renew();
    } catch (RuntimeException e) {
      log.warn("Could not renew this member's journal leases: {}", e.getMessage());
    }
  }

  private void renew() {
    if (held.isEmpty() || closed != null) return;
    if (!inMajority()) {
      if (renewing) log.warn("This member cannot reach a majority of the cluster: its journal leases are no longer renewed");
      renewing = false;
      return;
    }
    renewing = true;
    // Only leases taken before this renewal read the table: one taken meanwhile is not in what it read.
    Map<String, Held> before = Map.copyOf(held);
    Map<String, Long> inJournal;
    try (Connection conn = connection()) {
      inJournal = LeaseTable.renew(conn, owner, ttlMillis);
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
    before.forEach((name, h) -> {
      Long fencing = inJournal.get(name);
      if (fencing == null || fencing != h.fencing()) lose(name, h, "the journal shows it taken from this member");
    });
  }

  private void lose(String name, Held h, String why) {
    if (!held.remove(name, h)) return;
    log.warn("Lost lease {}: {}", name, why);
    if (h.lost() != null) h.lost().accept(Optional.of(new JournalWriteFenced("lease " + name + " lost: " + why)));
  }

  private boolean inMajority() {
    var state = org.apache.pekko.cluster.Cluster.get(Adapter.toClassic(system)).state();
    int members = 0;
    int unreachable = 0;
    for (Member m : state.getMembers()) {
      if (m.status() == MemberStatus.up() || m.status() == MemberStatus.leaving()
          || m.status() == MemberStatus.exiting() || m.status() == MemberStatus.weaklyUp()) {
        members++;
        if (state.getUnreachable().contains(m)) unreachable++;
      }
    }
    return members == 0 || 2 * (members - unreachable) > members;
  }

  /** This member was downed or removed: it writes nothing more, and its leases go. */
  void close(String why) {
    if (closed != null) return;
    closed = why;
    log.warn("Journal writes from this member stop: {}", why);
    Map.copyOf(held).forEach((name, h) -> lose(name, h, why));
  }

  /** Takes every lease from a member incarnation the cluster downed or removed; true once done. */
  boolean fence(String member) {
    try (Connection conn = connection()) {
      int leases = LeaseTable.fence(conn, member, owner);
      if (leases > 0) log.info("Fenced {}: took its {} journal leases", member, leases);
      return true;
    } catch (SQLException e) {
      log.warn("Could not fence {} in the journal yet: {}", member, e.getMessage());
      return false;
    }
  }

  /** Earlier incarnations on this member's own address, which cannot be running any more. */
  Set<String> earlierIncarnations() throws SQLException {
    String prefix = owner.substring(0, owner.indexOf('#') + 1);
    try (Connection conn = connection()) {
      return LeaseTable.ownersLike(conn, prefix, owner);
    }
  }

  Executor blocking() {
    return blocking;
  }

  private Connection connection() throws SQLException {
    return JournalDatabase.source(system).createConnection();
  }
}
