package dev.bobbin.persistence;

import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.persistence.jdbc.query.javadsl.JdbcReadJournal;
import org.apache.pekko.persistence.query.PersistenceQuery;

/** The read journal that projections tail (eventsByTag, persistenceIds, eventsByPersistenceId). */
public final class ReadJournals {
  private ReadJournals() {}

  public static JdbcReadJournal of(ActorSystem<?> system) {
    return PersistenceQuery.get(system).getReadJournalFor(JdbcReadJournal.class, JdbcReadJournal.Identifier());
  }
}
