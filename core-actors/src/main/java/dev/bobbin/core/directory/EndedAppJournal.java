package dev.bobbin.core.directory;

import dev.bobbin.core.app.ApplicationEntity;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collections;
import java.util.List;
import org.apache.pekko.persistence.typed.PersistenceId;

/**
 * Removes from the journal the events and snapshots of applications that ended and left the list
 * (beyond {@code bobbin.rm.max-completed-applications}), so that the journal does not grow with
 * every application ever finished; their tags go with their events. It runs in the list's own
 * transaction, which has read those events already. An ended application's entity persists nothing
 * that changes it, and one recovered from an emptied journal knows no application: its id answers
 * "not found", as YARN's RM answers for an application it has forgotten.
 */
final class EndedAppJournal {
  private EndedAppJournal() {}

  /** @return the journal rows removed */
  static int remove(Connection conn, List<String> appIds) throws SQLException {
    if (appIds.isEmpty()) return 0;
    String in = "(" + String.join(", ", Collections.nCopies(appIds.size(), "?")) + ")";
    int removed = 0;
    for (String table : List.of("event_journal", "snapshot")) {
      try (PreparedStatement st = conn.prepareStatement(
          "DELETE FROM \"" + table + "\" WHERE \"persistence_id\" IN " + in)) {
        int i = 1;
        for (String id : appIds) st.setString(i++, PersistenceId.of(ApplicationEntity.TYPE_KEY.name(), id).id());
        removed += st.executeUpdate();
      }
    }
    return removed;
  }
}
