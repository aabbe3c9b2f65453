package dev.bobbin.node.recovery;

import java.io.IOException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The localized resources the state store keeps, read at start and written as copies are made and
 * deleted; does nothing when recovery is off. Thread-safe: each copy is its own record, written
 * whole. A failed write is logged: the copy is then downloaded again after a restart, never used
 * unverified.
 */
public final class LocalizedRecords {
  private static final Logger log = LoggerFactory.getLogger(LocalizedRecords.class);

  /** Null when recovery is off. */
  private final FileStateStore store;
  private final List<StoredResource> recovered;

  private LocalizedRecords(FileStateStore store, List<StoredResource> recovered) {
    this.store = store;
    this.recovered = List.copyOf(recovered);
  }

  public static LocalizedRecords disabled() {
    return new LocalizedRecords(null, List.of());
  }

  /** Reads what {@code store} holds. */
  public static LocalizedRecords open(FileStateStore store) throws IOException {
    return new LocalizedRecords(store, store.loadResources());
  }

  public boolean enabled() {
    return store != null;
  }

  /** What the store held when the NodeManager started. */
  public List<StoredResource> recovered() {
    return recovered;
  }

  public void localized(StoredResource r) {
    if (store == null) return;
    try {
      store.put(r);
    } catch (IOException e) {
      log.error("Could not record localized resource {} in the NodeManager's state store: {}", r.dir(), e.toString());
    }
  }

  public void forgotten(String id) {
    if (store == null) return;
    try {
      store.removeResource(id);
    } catch (IOException e) {
      log.error("Could not forget localized resource {} in the NodeManager's state store: {}", id, e.toString());
    }
  }
}
