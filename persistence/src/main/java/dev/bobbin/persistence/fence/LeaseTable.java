package dev.bobbin.persistence.fence;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The journal database's lease table: which member may write the entities of a shard or a
 * singleton, until when, and under which fencing counter. Every time is the database's own clock
 * in epoch milliseconds, so the members' clocks never take part in deciding who owns what.
 *
 * <p>A lease changes owner only by {@link #acquire} (when it is free, expired or already the
 * caller's) or by {@link #fence} (when the cluster downed its owner), and each change raises the
 * fencing counter. A write is let through only in a transaction that found the writer's leases
 * live and held them locked ({@link #live}), so a fence waits for writes in flight and no write
 * commits after it.
 */
public final class LeaseTable {
  /** The two journal databases' spellings of "now" and of a shared row lock. */
  enum Dialect {
    // H2 journals belong to one process, where a lock against other writers has nothing to stop.
    H2("CAST(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000 AS BIGINT)", ""),
    // clock_timestamp(), not now(): now() is the transaction's start, which a fence that waited
    // for a lock would record too early.
    POSTGRES("CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)", " FOR SHARE");

    final String now;
    final String shareLock;

    Dialect(String now, String shareLock) {
      this.now = now;
      this.shareLock = shareLock;
    }

    static Dialect of(Connection conn) throws SQLException {
      String product = conn.getMetaData().getDatabaseProductName();
      return switch (product) {
        case "H2" -> H2;
        case "PostgreSQL" -> POSTGRES;
        default -> throw new SQLException("unsupported journal database " + product);
      };
    }
  }

  private static final String UNIQUE_VIOLATION = "23505";

  private LeaseTable() {}

  /** The database clock's epoch milliseconds, as the default of {@code event_journal.written_at}. */
  public static String nowExpression(Connection conn) throws SQLException {
    return Dialect.of(conn).now;
  }

  /**
   * Takes {@code name} for {@code owner} if it is free, expired or already the owner's, and the
   * owner was never fenced; returns the new fencing counter, or empty if someone else holds it.
   */
  static OptionalLong acquire(Connection conn, String name, String owner, long ttlMillis) throws SQLException {
    Dialect d = Dialect.of(conn);
    conn.setAutoCommit(false);
    try {
      try (PreparedStatement insert = conn.prepareStatement(
          "INSERT INTO \"journal_lease\" (\"name\", \"owner\", \"fencing\", \"expires_at\") VALUES (?, NULL, 0, 0)")) {
        insert.setString(1, name);
        if (!exists(conn, name)) insert.executeUpdate();
      } catch (SQLException e) {
        // Another member created the row first: it exists now, which is all this wanted.
        if (!UNIQUE_VIOLATION.equals(e.getSQLState())) throw e;
        conn.rollback();
      }
      int taken;
      try (PreparedStatement update = conn.prepareStatement(
          "UPDATE \"journal_lease\" SET \"owner\" = ?, \"fencing\" = \"fencing\" + 1, \"expires_at\" = " + d.now + " + ?"
              + " WHERE \"name\" = ? AND (\"owner\" IS NULL OR \"owner\" = ? OR \"expires_at\" < " + d.now + ")"
              + " AND NOT EXISTS (SELECT 1 FROM \"journal_fenced_member\" WHERE \"member\" = ?)")) {
        update.setString(1, owner);
        update.setLong(2, ttlMillis);
        update.setString(3, name);
        update.setString(4, owner);
        update.setString(5, owner);
        taken = update.executeUpdate();
      }
      OptionalLong fencing = OptionalLong.empty();
      if (taken == 1) {
        try (PreparedStatement select = conn.prepareStatement(
            "SELECT \"fencing\" FROM \"journal_lease\" WHERE \"name\" = ?")) {
          select.setString(1, name);
          try (ResultSet rs = select.executeQuery()) {
            if (rs.next()) fencing = OptionalLong.of(rs.getLong(1));
          }
        }
      }
      conn.commit();
      return fencing;
    } catch (SQLException e) {
      conn.rollback();
      throw e;
    } finally {
      conn.setAutoCommit(true);
    }
  }

  private static boolean exists(Connection conn, String name) throws SQLException {
    try (PreparedStatement select = conn.prepareStatement("SELECT 1 FROM \"journal_lease\" WHERE \"name\" = ?")) {
      select.setString(1, name);
      try (ResultSet rs = select.executeQuery()) {
        return rs.next();
      }
    }
  }

  /**
   * Extends every lease {@code owner} still holds, expired or not (an expired lease still in its
   * name was taken by no one), and returns them with their fencing counters.
   */
  static Map<String, Long> renew(Connection conn, String owner, long ttlMillis) throws SQLException {
    Dialect d = Dialect.of(conn);
    try (PreparedStatement update = conn.prepareStatement(
        "UPDATE \"journal_lease\" SET \"expires_at\" = " + d.now + " + ? WHERE \"owner\" = ?")) {
      update.setLong(1, ttlMillis);
      update.setString(2, owner);
      update.executeUpdate();
    }
    Map<String, Long> held = new HashMap<>();
    try (PreparedStatement select = conn.prepareStatement(
        "SELECT \"name\", \"fencing\" FROM \"journal_lease\" WHERE \"owner\" = ?")) {
      select.setString(1, owner);
      try (ResultSet rs = select.executeQuery()) {
        while (rs.next()) held.put(rs.getString(1), rs.getLong(2));
      }
    }
    return held;
  }

  /** Gives {@code name} up if {@code owner} still holds it under {@code fencing}. */
  static boolean release(Connection conn, String name, String owner, long fencing) throws SQLException {
    try (PreparedStatement update = conn.prepareStatement(
        "UPDATE \"journal_lease\" SET \"owner\" = NULL, \"expires_at\" = 0"
            + " WHERE \"name\" = ? AND \"owner\" = ? AND \"fencing\" = ?")) {
      update.setString(1, name);
      update.setString(2, owner);
      update.setLong(3, fencing);
      return update.executeUpdate() == 1;
    }
  }

  /**
   * Takes every lease from a downed member incarnation, after its writes in flight committed, and
   * records when: from then on it can neither write nor take a lease again. Returns how many leases
   * it held.
   */
  static int fence(Connection conn, String member, String by) throws SQLException {
    Dialect d = Dialect.of(conn);
    conn.setAutoCommit(false);
    try {
      int taken;
      try (PreparedStatement update = conn.prepareStatement(
          "UPDATE \"journal_lease\" SET \"owner\" = NULL, \"expires_at\" = 0, \"fencing\" = \"fencing\" + 1"
              + " WHERE \"owner\" = ?")) {
        update.setString(1, member);
        taken = update.executeUpdate();
      }
      if (!fenced(conn, member)) {
        try (PreparedStatement insert = conn.prepareStatement(
            "INSERT INTO \"journal_fenced_member\" (\"member\", \"fenced_at\", \"fenced_by\") VALUES (?, " + d.now + ", ?)")) {
          insert.setString(1, member);
          insert.setString(2, by);
          insert.executeUpdate();
        }
      }
      conn.commit();
      return taken;
    } catch (SQLException e) {
      conn.rollback();
      if (UNIQUE_VIOLATION.equals(e.getSQLState())) return 0; // another survivor recorded it first
      throw e;
    } finally {
      conn.setAutoCommit(true);
    }
  }

  static boolean fenced(Connection conn, String member) throws SQLException {
    try (PreparedStatement select = conn.prepareStatement(
        "SELECT 1 FROM \"journal_fenced_member\" WHERE \"member\" = ?")) {
      select.setString(1, member);
      try (ResultSet rs = select.executeQuery()) {
        return rs.next();
      }
    }
  }

  /**
   * The owners other than {@code self} whose names start with {@code prefix}: earlier incarnations
   * of a member on the same address, fenced when a new one starts there.
   */
  static java.util.Set<String> ownersLike(Connection conn, String prefix, String self) throws SQLException {
    java.util.Set<String> owners = new java.util.HashSet<>();
    try (PreparedStatement select = conn.prepareStatement(
        "SELECT DISTINCT \"owner\" FROM \"journal_lease\" WHERE \"owner\" LIKE ? AND \"owner\" <> ?")) {
      select.setString(1, prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%");
      select.setString(2, self);
      try (ResultSet rs = select.executeQuery()) {
        while (rs.next()) owners.add(rs.getString(1));
      }
    }
    return owners;
  }

  /**
   * Which of {@code names} {@code owner} holds unexpired, with their fencing counters, each locked
   * against a fence until the caller's transaction ends. Runs inside the write's transaction.
   */
  static Map<String, Long> live(Connection conn, String owner, Collection<String> names) throws SQLException {
    Dialect d = Dialect.of(conn);
    Map<String, Long> live = new HashMap<>();
    Array array = conn.createArrayOf("VARCHAR", names.toArray());
    try (PreparedStatement select = conn.prepareStatement(
        "SELECT \"name\", \"fencing\" FROM \"journal_lease\" WHERE \"owner\" = ? AND \"expires_at\" > " + d.now
            + " AND \"name\" = ANY (?)" + d.shareLock)) {
      select.setString(1, owner);
      select.setArray(2, array);
      try (ResultSet rs = select.executeQuery()) {
        while (rs.next()) live.put(rs.getString(1), rs.getLong(2));
      }
    } finally {
      array.free();
    }
    return live;
  }
}
