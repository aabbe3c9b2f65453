package dev.bobbin.persistence.fence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.persistence.Ledger;
import dev.bobbin.persistence.testing.TestJournals;
import dev.bobbin.pg.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.sharding.typed.HashCodeMessageExtractor;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityRef;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.pattern.StatusReply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Sharded entities on a one-member cluster writing to PostgreSQL through the fenced journal: what
 * they write carries their member, and once the member is fenced (the cluster downed it while it
 * was paused or cut off) or another member took the shard's lease, nothing more it writes commits.
 */
class FencedJournalTest {
  private static final EntityTypeKey<Ledger.Command> LEDGER = EntityTypeKey.create(Ledger.Command.class, "Ledger");
  /** How long a write the fence refuses is given before it counts as refused. */
  private static final Duration ASK = Duration.ofSeconds(3);
  /** How long a write that must succeed may take: the first starts the shard, on a busy machine too. */
  private static final Duration WRITE = Duration.ofSeconds(20);

  private EmbeddedPostgres.Database db;
  private ActorTestKit kit;
  private WriteFence fence;
  private ClusterSharding sharding;

  @BeforeEach
  void startMember() {
    db = EmbeddedPostgres.shared().createDatabase();
    Config config = ConfigFactory.parseString("""
        pekko.actor.provider = cluster
        pekko.remote.artery.canonical { hostname = "127.0.0.1", port = 0 }
        pekko.cluster.sharding.number-of-shards = 10
        """).withFallback(TestJournals.postgres(db));
    kit = ActorTestKit.create("FencedJournalTest", config);
    ActorSystem<?> system = kit.system();
    TestJournals.ensureSchema(system);
    Cluster cluster = Cluster.get(system);
    cluster.manager().tell(Join.create(cluster.selfMember().address()));
    kit.createTestProbe().awaitAssert(Duration.ofSeconds(20),
        () -> assertThat(cluster.selfMember().status()).isEqualTo(MemberStatus.up()));
    fence = WriteFence.get(system);
    HashCodeMessageExtractor<Ledger.Command> shards = new HashCodeMessageExtractor<>(10);
    fence.fenceShardedType("Ledger", shards::shardId);
    sharding = ClusterSharding.get(system);
    sharding.init(Entity.of(LEDGER, ctx -> Ledger.create(ctx.getEntityId(), "fenced",
        kit.<Ledger.Observed>createTestProbe().ref())));
  }

  @AfterEach
  void stop() {
    kit.shutdownTestKit();
  }

  @Test
  void eachEventNamesTheMemberThatWroteItUnderTheShardsLease() throws Exception {
    assertThat(write("a", "first")).containsExactly("first");

    List<Row> rows = rows("Ledger|a");
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).writer()).isEqualTo(fence.owner()).startsWith("FencedJournalTest@127.0.0.1:");
    assertThat(rows.get(0).writtenAt()).isPositive();
    assertThat(leaseOwner(fence.leaseOf("Ledger|a"))).isEqualTo(fence.owner());
  }

  @Test
  void aMemberFencedByTheSurvivorsCommitsNothingMore() throws Exception {
    assertThat(write("a", "before")).containsExactly("before");

    try (Connection conn = connect()) {
      assertThat(LeaseTable.fence(conn, fence.owner(), "survivor@127.0.0.1:2552#9")).isPositive();
    }

    assertThatThrownBy(() -> add("a", "after")).hasCauseInstanceOf(java.util.concurrent.TimeoutException.class);
    assertThat(rows("Ledger|a")).hasSize(1);
    // Its lease went back to the cluster: another member takes it at once, without its time to live.
    try (Connection conn = connect()) {
      assertThat(LeaseTable.acquire(conn, fence.leaseOf("Ledger|a"), "survivor@127.0.0.1:2552#9", 60_000)).isPresent();
    }
  }

  @Test
  void aShardWhoseLeaseAnotherMemberTookStopsAndItsWritesAreRefused() throws Exception {
    assertThat(write("b", "before")).containsExactly("before");
    String lease = fence.leaseOf("Ledger|b");
    try (Connection conn = connect(); PreparedStatement st = conn.prepareStatement(
        "UPDATE journal_lease SET owner = 'other@127.0.0.1:2553#5', fencing = fencing + 1 WHERE name = ?")) {
      st.setString(1, lease);
      assertThat(st.executeUpdate()).isEqualTo(1);
    }
    kit.createTestProbe().awaitAssert(Duration.ofSeconds(30), () -> assertThat(fence.holds(lease)).isFalse());

    assertThatThrownBy(() -> add("b", "after")).hasCauseInstanceOf(java.util.concurrent.TimeoutException.class);
    assertThat(rows("Ledger|b")).hasSize(1);

    // The other member lets it go: the shard, which kept asking, takes it back and can hand off as
    // the member leaves (a shard waiting for its lease does not).
    try (Connection conn = connect(); PreparedStatement st = conn.prepareStatement(
        "UPDATE journal_lease SET expires_at = 0 WHERE name = ?")) {
      st.setString(1, lease);
      st.executeUpdate();
    }
    kit.createTestProbe().awaitAssert(Duration.ofSeconds(30), () -> assertThat(fence.holds(lease)).isTrue());
  }

  private List<String> add(String entity, String item) throws Exception {
    return add(entity, item, ASK);
  }

  private List<String> write(String entity, String item) throws Exception {
    return add(entity, item, WRITE);
  }

  private List<String> add(String entity, String item, Duration timeout) throws Exception {
    EntityRef<Ledger.Command> ref = sharding.entityRefFor(LEDGER, entity);
    StatusReply<Ledger.Summary> reply = ref.<StatusReply<Ledger.Summary>>ask(r -> new Ledger.Add(item, r), timeout)
        .toCompletableFuture().get(timeout.toMillis() + 2_000, TimeUnit.MILLISECONDS);
    return reply.getValue().items();
  }

  record Row(String writer, long writtenAt) {}

  private List<Row> rows(String pid) throws SQLException {
    try (Connection conn = connect(); PreparedStatement st = conn.prepareStatement(
        "SELECT writer, written_at FROM event_journal WHERE persistence_id = ? ORDER BY sequence_number")) {
      st.setString(1, pid);
      List<Row> rows = new ArrayList<>();
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) rows.add(new Row(rs.getString(1), rs.getLong(2)));
      }
      return rows;
    }
  }

  private String leaseOwner(String lease) throws SQLException {
    try (Connection conn = connect(); PreparedStatement st = conn.prepareStatement(
        "SELECT owner FROM journal_lease WHERE name = ?")) {
      st.setString(1, lease);
      try (ResultSet rs = st.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  private Connection connect() throws SQLException {
    return DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
  }
}
