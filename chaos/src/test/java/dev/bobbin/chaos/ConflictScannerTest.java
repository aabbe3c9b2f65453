package dev.bobbin.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConflictScannerTest {
  private static final String REFUSED = String.join("\n",
      "10:15:02.114 INFO  d.b.c.Scheduler - epoch 4",
      "10:15:03.201 ERROR o.a.p.t.i.EventSourcedBehaviorImpl - Supervisor StopSupervisor saw failure: Failed to persist"
          + " event type [dev.bobbin.core.app.AppEvent$Registered] with sequence number [12] for persistenceId"
          + " [App|application_1700000000000_0007]",
      "org.apache.pekko.persistence.typed.internal.JournalFailureException: Failed to persist event type [x]",
      "\tat org.apache.pekko.persistence.typed.internal.Running.onWriteFailed(Running.scala:900)",
      "Caused by: java.sql.BatchUpdateException: Batch entry 0 insert into \"event_journal\" was aborted: ERROR:"
          + " duplicate key value violates unique constraint \"event_journal_pkey\"",
      "10:15:03.205 INFO  d.b.c.Scheduler - next");

  @Test
  void aPersistFailureWithADuplicateKeyIsAConflict() throws IOException {
    List<ConflictScanner.Conflict> found = ConflictScanner.scan("rm-2", new StringReader(REFUSED + "\n"));
    assertThat(found).containsExactly(
        new ConflictScanner.Conflict("rm-2", "App|application_1700000000000_0007", 12, "10:15:03.201"));
  }

  @Test
  void theSameFailureLoggedTwiceCountsOnce() throws IOException {
    String twice = REFUSED + "\n" + REFUSED.replace("10:15:03.201", "10:15:03.202");
    assertThat(ConflictScanner.scan("rm-1", new StringReader(twice))).hasSize(1);
  }

  @Test
  void otherPersistFailuresAndDuplicateKeysElsewhereAreNot() throws IOException {
    String unreachable = REFUSED.replace("duplicate key value violates unique constraint", "Connection refused");
    assertThat(ConflictScanner.scan("rm-1", new StringReader(unreachable))).isEmpty();
    // A duplicate key in the next entry belongs to that entry, not to the persist failure before it.
    String split = String.join("\n",
        "10:15:03.201 ERROR x - Failed to persist event type [E] with sequence number [3] for persistenceId [A|1]",
        "Caused by: java.net.ConnectException: Connection refused",
        "10:15:04.000 WARN  y - duplicate key value violates unique constraint \"app_directory_pkey\"");
    assertThat(ConflictScanner.scan("rm-1", new StringReader(split))).isEmpty();
  }
}
