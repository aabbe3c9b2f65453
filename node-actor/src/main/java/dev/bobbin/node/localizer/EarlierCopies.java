package dev.bobbin.node.localizer;

import dev.bobbin.node.cleanup.Deletions;
import dev.bobbin.node.recovery.LocalizedRecords;
import dev.bobbin.node.recovery.StoredResource;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the PUBLIC and PRIVATE caches hold when a node starts, sorted as YARN's recovery of its
 * localized resources does: a copy the state store recorded where it is can be used again;
 * anything else there (everything, without a state store; a download left unfinished; a copy
 * made just before a crash, never recorded) is deleted, since nothing says what it is; and a
 * record whose copy is gone is forgotten.
 */
final class EarlierCopies {
  private static final Logger LOG = LoggerFactory.getLogger(EarlierCopies.class);

  private EarlierCopies() {}

  /** @return the records whose copies are used again */
  static List<StoredResource> sort(List<Path> nodeRoots, LocalizedRecords records) {
    Map<String, StoredResource> kept = new HashMap<>();
    records.recovered().forEach(r -> kept.put(r.id(), r));
    List<StoredResource> reusable = new ArrayList<>();
    int deleted = 0;
    for (Path root : nodeRoots) {
      try {
        for (Path dir : copies(root)) {
          StoredResource record = kept.remove(dir.getFileName().toString());
          if (record != null && Path.of(record.dir()).equals(dir)) {
            reusable.add(record);
            continue;
          }
          if (record != null) records.forgotten(record.id());
          Deletions.deleteTree(dir);
          deleted++;
        }
      } catch (IOException e) {
        LOG.warn("cannot look at what the resource caches under {} hold: {}", root, e.toString());
      }
    }
    kept.keySet().forEach(records::forgotten);
    if (deleted > 0) LOG.info("resource caches from an earlier run: {} copies nothing records deleted", deleted);
    return reusable;
  }

  private static List<Path> copies(Path root) throws IOException {
    List<Path> caches = new ArrayList<>(List.of(root.resolve("filecache")));
    for (Path user : Deletions.children(root.resolve("usercache"))) caches.add(user.resolve("filecache"));
    List<Path> out = new ArrayList<>();
    for (Path cache : caches) addCopies(cache, out);
    return out;
  }

  private static void addCopies(Path dir, List<Path> out) throws IOException {
    for (Path child : Deletions.children(dir)) {
      if (CacheSubdirs.isSubdir(child.getFileName().toString())) addCopies(child, out);
      else out.add(child);
    }
  }
}
