package dev.bobbin.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.pekko.dispatch.Futures;
import org.apache.pekko.persistence.AtomicWrite;
import org.apache.pekko.persistence.PersistentRepr;
import org.apache.pekko.persistence.journal.japi.AsyncWriteJournal;
import scala.concurrent.Future;

/**
 * A journal that acknowledges every write and keeps nothing, for measuring what live entities
 * hold in memory without counting a copy of their events in an in-memory journal.
 */
public final class NullJournal extends AsyncWriteJournal {
  @Override
  public Future<Iterable<Optional<Exception>>> doAsyncWriteMessages(Iterable<AtomicWrite> messages) {
    List<Optional<Exception>> ok = new ArrayList<>();
    for (AtomicWrite ignored : messages) ok.add(Optional.empty());
    return Futures.successful(ok);
  }

  @Override
  public Future<Void> doAsyncDeleteMessagesTo(String persistenceId, long toSequenceNr) {
    return Futures.successful(null);
  }

  @Override
  public Future<Void> doAsyncReplayMessages(String persistenceId, long fromSequenceNr, long toSequenceNr, long max,
      Consumer<PersistentRepr> replay) {
    return Futures.successful(null);
  }

  @Override
  public Future<Long> doAsyncReadHighestSequenceNr(String persistenceId, long fromSequenceNr) {
    return Futures.successful(0L);
  }
}
