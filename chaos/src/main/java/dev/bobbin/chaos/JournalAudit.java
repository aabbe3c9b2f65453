package dev.bobbin.chaos;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Checks the journal afterwards for events written by a member after it was fenced: every event
 * row names its writer's incarnation ({@code system@host:port#uid}) and the database's clock at
 * insert ({@code written_at}, epoch ms), and {@code journal_fenced_member} records when the
 * surviving members fenced a downed incarnation ({@code fenced_at}, same clock).
 */
final class JournalAudit {
  /** One fenced incarnation, and the events it wrote after it was fenced. */
  record Fenced(String member, long fencedAtMs, String fencedBy, long writesAfter, long lastWrittenAtMs) {}

  /** {@code notChecked} says why the journal could not be checked; otherwise {@code fenced} is every fenced incarnation. */
  record Outcome(Optional<String> notChecked, List<Fenced> fenced) {
    static Outcome notChecked(String why) {
      return new Outcome(Optional.of(why), List.of());
    }

    long writesAfterFencing() {
      return fenced.stream().mapToLong(Fenced::writesAfter).sum();
    }

    List<Violation> violations() {
      List<Violation> out = new ArrayList<>();
      for (Fenced f : fenced) {
        if (f.writesAfter() == 0) continue;
        out.add(new Violation(Violation.Kind.STALE_WRITE, f.fencedAtMs(), f.writesAfter() + " event(s) written by "
            + f.member() + " after it was fenced" + (f.fencedBy() == null ? "" : " by " + f.fencedBy()) + ", the last "
            + Durations.format(f.lastWrittenAtMs() - f.fencedAtMs()) + " after"));
      }
      return out;
    }

    /**
     * For each downing the harness saw: how long after it the journal fenced that member's
     * incarnation (the closest fencing of its address), or that it was never fenced.
     */
    List<String> fencingGaps(List<FaultInjector.Downing> downings) {
      List<String> out = new ArrayList<>();
      if (notChecked.isPresent()) return out;
      for (FaultInjector.Downing d : downings) {
        Optional<Fenced> closest = fenced.stream().filter(f -> f.member().startsWith(d.member().writerPrefix()))
            .min(Comparator.comparingLong(f -> Math.abs(f.fencedAtMs() - d.atMs())));
        out.add(d.member().name() + " downed (seen at " + java.time.Instant.ofEpochMilli(d.atMs()) + "): "
            + closest.map(f -> f.member() + " fenced " + signed(f.fencedAtMs() - d.atMs())
                + " relative to that").orElse("no incarnation of " + d.member().writerPrefix() + "* fenced"));
      }
      return out;
    }
  }

  private static final String COLUMNS = "SELECT count(*) FROM information_schema.columns"
      + " WHERE table_schema = current_schema() AND table_name = ? AND column_name = ANY (?)";
  private static final String LATE_WRITES = "SELECT f.member, f.fenced_at, f.fenced_by, count(e.writer), max(e.written_at)"
      + " FROM journal_fenced_member f LEFT JOIN event_journal e ON e.writer = f.member AND e.written_at > f.fenced_at"
      + " GROUP BY f.member, f.fenced_at, f.fenced_by ORDER BY f.fenced_at";

  private JournalAudit() {}

  static Outcome check(Connection c) throws SQLException {
    if (columns(c, "event_journal", "writer", "written_at") < 2
        || columns(c, "journal_fenced_member", "member", "fenced_at", "fenced_by") < 3) {
      return Outcome.notChecked("journal has no fencing columns");
    }
    List<Fenced> fenced = new ArrayList<>();
    try (PreparedStatement st = c.prepareStatement(LATE_WRITES); ResultSet rs = st.executeQuery()) {
      while (rs.next()) {
        fenced.add(new Fenced(rs.getString(1), rs.getLong(2), rs.getString(3), rs.getLong(4), rs.getLong(5)));
      }
    }
    return new Outcome(Optional.empty(), List.copyOf(fenced));
  }

  private static int columns(Connection c, String table, String... names) throws SQLException {
    try (PreparedStatement st = c.prepareStatement(COLUMNS)) {
      st.setString(1, table);
      st.setArray(2, c.createArrayOf("varchar", names));
      try (ResultSet rs = st.executeQuery()) {
        return rs.next() ? rs.getInt(1) : 0;
      }
    }
  }

  private static String signed(long ms) {
    return (ms < 0 ? "-" : "+") + Durations.format(Math.abs(ms));
  }
}
