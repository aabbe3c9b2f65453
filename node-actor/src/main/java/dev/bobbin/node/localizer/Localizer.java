package dev.bobbin.node.localizer;

import dev.bobbin.node.cleanup.Deletions;
import dev.bobbin.node.container.ContainerLaunchRefused;
import dev.bobbin.protocol.LocalResource;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's resource localization, as YARN's ResourceLocalizationService: downloads what a
 * container's launch context lists into a cache per visibility, and links each into the
 * container's working directory under its name. PUBLIC resources go under the node's {@code
 * filecache}, PRIVATE ones under {@code usercache/<user>/filecache}, APPLICATION ones under the
 * application's own directory (and so go with it). Concurrent containers asking for one resource
 * share one download. PUBLIC and PRIVATE resources no container uses are deleted, least recently
 * used first, while the caches hold more than the target size. Thread-safe; calls block while
 * downloading.
 */
public final class Localizer {
  private static final Logger LOG = LoggerFactory.getLogger(Localizer.class);
  private static final String TMP = ".downloading";

  private final Path nodeRoot;
  private final long targetBytes;
  private final Clock clock;
  private final Fetcher fetcher = new Fetcher();
  private final Map<LocalizedResource, CompletableFuture<Path>> localized = new ConcurrentHashMap<>();
  /** The PUBLIC and PRIVATE copies, by their directory, one per download. */
  private final CacheAccount<Path> shared = new CacheAccount<>();
  /** Which resource each copy in {@link #shared} is, for those this run localized. */
  private final Map<Path, LocalizedResource> copies = new HashMap<>();

  /** The PUBLIC and PRIVATE copies a container holds; given back by {@link #release} when it ends. */
  public record Lease(List<Path> held) {}

  /**
   * Counts what the PUBLIC and PRIVATE caches already hold from an earlier run on these
   * directories, last used when they last changed, so that they are deleted by the same rule;
   * downloads an earlier run left unfinished are deleted.
   *
   * @param nodeRoot the node's folder in its first local directory; the shared caches live under it
   */
  public Localizer(Path nodeRoot, long targetBytes, Clock clock) {
    this.nodeRoot = nodeRoot;
    this.targetBytes = targetBytes;
    this.clock = clock;
    List<Path> caches = new ArrayList<>(List.of(nodeRoot.resolve("filecache")));
    try {
      for (Path user : Deletions.children(nodeRoot.resolve("usercache"))) caches.add(user.resolve("filecache"));
      for (Path cache : caches) {
        for (Path dir : Deletions.children(cache)) {
          if (dir.getFileName().toString().contains(TMP)) {
            deleteTree(dir);
          } else {
            shared.added(dir, sizeOf(dir), Files.getLastModifiedTime(dir).toMillis());
          }
        }
      }
    } catch (IOException e) {
      LOG.warn("cannot count what the resource caches under {} hold: {}", nodeRoot, e.toString());
    }
  }

  /**
   * Localizes the resources and links each into {@code workDir} under its name.
   *
   * @param appDir the application's local directory, home of its APPLICATION resources
   * @throws ContainerLaunchRefused naming the resource that failed and why
   */
  public Lease localize(String user, String applicationId, Path appDir, Path workDir,
      Map<String, LocalResource> resources) throws ContainerLaunchRefused {
    List<Path> held = new ArrayList<>();
    try {
      Files.createDirectories(workDir);
      for (var e : resources.entrySet()) {
        LocalResource r = e.getValue();
        LocalizedResource key = LocalizedResource.of(r, user, applicationId);
        Path local;
        try {
          local = acquire(key, r, cacheDir(key, user, appDir));
        } catch (IOException ex) {
          throw new ContainerLaunchRefused("Resource " + r.resource() + " (" + e.getKey()
              + ") failed to localize: " + ex.getMessage());
        }
        if (key.visibility() != LocalResource.Visibility.APPLICATION) held.add(local.getParent());
        Path link = workDir.resolve(e.getKey());
        try {
          Files.createSymbolicLink(link, local);
        } catch (FileAlreadyExistsException ex) {
          throw new ContainerLaunchRefused("Resource " + r.resource() + " (" + e.getKey()
              + ") cannot be linked: the container's working directory already has " + e.getKey());
        }
      }
      release(new Lease(List.of()));
      return new Lease(List.copyOf(held));
    } catch (ContainerLaunchRefused ex) {
      release(new Lease(held));
      throw ex;
    } catch (IOException ex) {
      release(new Lease(held));
      throw new ContainerLaunchRefused("Failed to localize resources: " + ex.getMessage());
    }
  }

  /** The container no longer uses its resources; the shared caches shrink to their target if they can. */
  public void release(Lease lease) {
    List<Path> doomed = new ArrayList<>();
    synchronized (shared) {
      for (Path dir : lease.held()) shared.release(dir, clock.millis());
      for (Path dir : shared.evictAbove(targetBytes)) {
        LocalizedResource key = copies.remove(dir);
        if (key != null) localized.remove(key);
        doomed.add(dir);
      }
    }
    for (Path dir : doomed) {
      LOG.info("localized resource evicted from the cache dir={}", dir);
      deleteTree(dir);
    }
  }

  /**
   * Counts in use the cached copies a container's working directory links to: a container an
   * earlier run of the node started, and this one took back, keeps its resources until it ends.
   */
  public Lease holdLinked(Path workDir) {
    List<Path> held = new ArrayList<>();
    try (Stream<Path> entries = Files.list(workDir)) {
      for (Path link : entries.filter(Files::isSymbolicLink).toList()) {
        Path copy = Files.readSymbolicLink(link).getParent();
        synchronized (shared) {
          if (copy != null && shared.holds(copy)) {
            shared.retain(copy, clock.millis());
            held.add(copy);
          }
        }
      }
    } catch (IOException e) {
      LOG.warn("cannot look at the resources linked from {}: {}", workDir, e.toString());
    }
    return new Lease(List.copyOf(held));
  }

  /** The application ended: its APPLICATION copies go with its directory, and are forgotten here. */
  public void applicationEnded(String applicationId) {
    localized.keySet().removeIf(k -> k.visibility() == LocalResource.Visibility.APPLICATION
        && k.owner().equals(applicationId));
  }

  /** Bytes the PUBLIC and PRIVATE caches hold. */
  public long cachedBytes() {
    synchronized (shared) {
      return shared.totalBytes();
    }
  }

  private Path cacheDir(LocalizedResource key, String user, Path appDir) {
    return switch (key.visibility()) {
      case PUBLIC -> nodeRoot.resolve("filecache");
      case PRIVATE -> nodeRoot.resolve("usercache").resolve(user).resolve("filecache");
      case APPLICATION -> appDir.resolve("filecache");
    };
  }

  /** The local path of the resource, downloaded by this call or by one before it, and counted in use. */
  private Path acquire(LocalizedResource key, LocalResource r, Path cache) throws IOException {
    while (true) {
      CompletableFuture<Path> mine = new CompletableFuture<>();
      CompletableFuture<Path> existing = localized.putIfAbsent(key, mine);
      if (existing == null) download(key, r, cache, mine);
      CompletableFuture<Path> entry = existing == null ? mine : existing;
      Path local;
      try {
        local = entry.join();
      } catch (CompletionException e) {
        throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
      }
      if (key.visibility() == LocalResource.Visibility.APPLICATION) return local;
      synchronized (shared) {
        // Evicted between its download and now: localize it again.
        if (localized.get(key) != entry) continue;
        shared.retain(local.getParent(), clock.millis());
        return local;
      }
    }
  }

  private void download(LocalizedResource key, LocalResource r, Path cache, CompletableFuture<Path> result) {
    String unique = key.dirName() + "-" + UUID.randomUUID().toString().substring(0, 8);
    Path dir = cache.resolve(unique);
    Path tmp = cache.resolve(unique + TMP);
    try {
      Files.createDirectories(tmp);
      String name = key.fileName();
      Path fetched = tmp.resolve(name + ".download");
      fetcher.fetch(r, fetched, clock.millis());
      switch (r.type()) {
        case FILE -> Files.move(fetched, tmp.resolve(name));
        case ARCHIVE -> Unpacker.unpack(fetched, name, tmp.resolve(name), null);
        case PATTERN -> {
          Unpacker.unpack(fetched, name, tmp.resolve(name), r.pattern());
          Files.copy(fetched, tmp.resolve(name).resolve(name), StandardCopyOption.REPLACE_EXISTING);
        }
      }
      Files.deleteIfExists(fetched);
      Files.move(tmp, dir);
      long bytes = sizeOf(dir);
      LOG.info("resource localized resource={} visibility={} bytes={} dir={}", r.resource(), r.visibility(), bytes, dir);
      // Counted and published together, so that an eviction sees no copy half-registered.
      synchronized (shared) {
        if (key.visibility() != LocalResource.Visibility.APPLICATION) {
          shared.added(dir, bytes, clock.millis());
          copies.put(dir, key);
        }
        result.complete(dir.resolve(name));
      }
    } catch (IOException | RuntimeException e) {
      deleteTree(tmp);
      localized.remove(key, result);
      LOG.warn("resource localization failed resource={} reason={}", r.resource(), e.toString());
      result.completeExceptionally(e instanceof IOException ? e : new IOException(e.toString(), e));
    }
  }

  private static long sizeOf(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)).mapToLong(p -> {
        try {
          return Files.size(p);
        } catch (IOException e) {
          return 0;
        }
      }).sum();
    }
  }

  private static void deleteTree(Path dir) {
    if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return;
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    } catch (IOException e) {
      LOG.warn("cannot delete a localized resource dir={} reason={}", dir, e.toString());
    }
  }
}
