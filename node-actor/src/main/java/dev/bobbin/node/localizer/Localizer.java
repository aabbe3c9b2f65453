package dev.bobbin.node.localizer;

import dev.bobbin.node.cleanup.Deletions;
import dev.bobbin.node.container.ContainerLaunchRefused;
import dev.bobbin.node.container.ContainerLayout;
import dev.bobbin.node.container.OsAccount;
import dev.bobbin.node.recovery.LocalizedRecords;
import dev.bobbin.node.recovery.StoredResource;
import dev.bobbin.protocol.LocalResource;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
 * filecache}, PRIVATE ones under {@code usercache/<user>/filecache}, in the node's folder of one of
 * the good local directories, taken in turn; APPLICATION ones under the application's own directory
 * (and so go with it). Concurrent containers asking for one resource share one download. PUBLIC and
 * PRIVATE resources no container uses are deleted, least recently used first, while the caches
 * hold more than the target size; those on a local directory that fails are forgotten. With the
 * state store on, PUBLIC and PRIVATE copies are recorded and a restarted node uses them again.
 * Thread-safe; calls block while downloading.
 */
public final class Localizer {
  private static final Logger LOG = LoggerFactory.getLogger(Localizer.class);
  private static final String TMP = ".downloading";

  private final CacheDirs dirs;
  private final CacheSubdirs subdirs;
  private final long targetBytes;
  private final Clock clock;
  private final LocalizedRecords records;
  private final Fetcher fetcher = new Fetcher();
  private final Map<LocalizedResource, CompletableFuture<Path>> localized = new ConcurrentHashMap<>();
  /** The PUBLIC and PRIVATE copies, by their directory, one per download. */
  private final CacheAccount<Path> shared = new CacheAccount<>();
  /** Which resource each copy in {@link #shared} is. */
  private final Map<Path, LocalizedResource> copies = new HashMap<>();
  /** Copies forgotten when their local directory failed, deleted once it is good again. */
  private final List<Path> abandoned = new ArrayList<>();

  /** The PUBLIC and PRIVATE copies a container holds; given back by {@link #release} when it ends. */
  public record Lease(List<Path> held) {}

  /** What a container's working directory links to, by name; and the copies it holds meanwhile. */
  public record Localized(Map<String, Path> links, Lease lease) {}

  /** YARN's default of {@code yarn.nodemanager.local-cache.max-files-per-directory}. */
  public static final int DEFAULT_MAX_FILES_PER_DIRECTORY = 8192;

  /** On one local directory, without a state store: what an earlier run left in the caches is deleted. */
  public Localizer(Path nodeRoot, long targetBytes, Clock clock) {
    this(List.of(nodeRoot), targetBytes, clock, LocalizedRecords.disabled());
  }

  public Localizer(List<Path> nodeRoots, long targetBytes, Clock clock, LocalizedRecords records) {
    this(nodeRoots, targetBytes, DEFAULT_MAX_FILES_PER_DIRECTORY, clock, records);
  }

  /**
   * Looks at what the caches hold from an earlier run on these directories. The copies {@code
   * records} kept are used again, last used when they were made, and count towards the target
   * like any other; everything else there (all of it without a state store, and downloads an
   * earlier run left unfinished) is deleted, since nothing says what it is.
   *
   * @param nodeRoots the node's folder in each local directory; the shared caches live under them
   * @param maxFilesPerDirectory at most this many entries in a directory of a cache ({@link CacheSubdirs})
   */
  public Localizer(List<Path> nodeRoots, long targetBytes, int maxFilesPerDirectory, Clock clock,
      LocalizedRecords records) {
    this.dirs = new CacheDirs(nodeRoots);
    this.subdirs = new CacheSubdirs(maxFilesPerDirectory);
    this.targetBytes = targetBytes;
    this.clock = clock;
    this.records = records;
    List<StoredResource> reusable = EarlierCopies.sort(dirs.all(), records);
    for (StoredResource r : reusable) {
      try {
        restore(r, Path.of(r.dir()));
      } catch (IOException e) {
        LOG.warn("cannot use cached resource {} again: {}", r.dir(), e.toString());
      }
    }
    if (!reusable.isEmpty()) {
      LOG.info("resource caches from an earlier run: {} copies used again ({} bytes)", reusable.size(), cachedBytes());
    }
  }

  /** Where {@code copy} lies below its cache: "" in the cache itself. */
  private static String subdirOf(Path copy) {
    return CacheSubdirs.cacheOf(copy).relativize(copy.getParent()).toString();
  }

  private void restore(StoredResource r, Path dir) throws IOException {
    LocalizedResource key = new LocalizedResource(r.visibility(), r.owner(), r.resource(), r.timestamp(), r.type(),
        r.pattern());
    subdirs.counted(CacheSubdirs.cacheOf(dir), subdirOf(dir));
    synchronized (shared) {
      shared.added(dir, r.bytes(), Files.getLastModifiedTime(dir).toMillis());
      copies.put(dir, key);
      localized.putIfAbsent(key, CompletableFuture.completedFuture(dir.resolve(r.name())));
    }
  }

  /**
   * Localizes the resources, for containers run as the node's own user, and links each into
   * {@code workDir} under its name.
   *
   * @param appDir the application's local directory, home of its APPLICATION resources
   * @throws ContainerLaunchRefused naming the resource that failed and why
   */
  public Lease localize(String user, String applicationId, Path appDir, Path workDir,
      Map<String, LocalResource> resources) throws ContainerLaunchRefused {
    Localized done = localize(user, null, applicationId, appDir, resources);
    try {
      Files.createDirectories(workDir);
      for (var link : done.links().entrySet()) {
        try {
          Files.createSymbolicLink(workDir.resolve(link.getKey()), link.getValue());
        } catch (FileAlreadyExistsException ex) {
          throw new ContainerLaunchRefused("Resource " + resources.get(link.getKey()).resource() + " ("
              + link.getKey() + ") cannot be linked: the container's working directory already has " + link.getKey());
        }
      }
      return done.lease();
    } catch (ContainerLaunchRefused ex) {
      release(done.lease());
      throw ex;
    } catch (IOException ex) {
      release(done.lease());
      throw new ContainerLaunchRefused("Failed to localize resources: " + ex.getMessage());
    }
  }

  /**
   * Localizes the resources and says where each is; the container's launch links them.
   *
   * @param account the user the container runs as, who gets its PRIVATE and APPLICATION copies
   *     (see {@link CacheOwnership}); null when containers run as the node's own user
   * @throws ContainerLaunchRefused naming the resource that failed and why
   */
  public Localized localize(String user, OsAccount account, String applicationId, Path appDir,
      Map<String, LocalResource> resources) throws ContainerLaunchRefused {
    List<Path> held = new ArrayList<>();
    Map<String, Path> links = new LinkedHashMap<>();
    try {
      for (var e : resources.entrySet()) {
        LocalResource r = e.getValue();
        LocalizedResource key = LocalizedResource.of(r, user, applicationId);
        Path local;
        try {
          local = acquire(key, r, new Target(user, account, appDir));
        } catch (IOException ex) {
          throw new ContainerLaunchRefused("Resource " + r.resource() + " (" + e.getKey()
              + ") failed to localize: " + ex.getMessage());
        }
        if (key.visibility() != LocalResource.Visibility.APPLICATION) held.add(local.getParent());
        links.put(e.getKey(), local);
      }
      release(new Lease(List.of()));
      return new Localized(links, new Lease(List.copyOf(held)));
    } catch (ContainerLaunchRefused ex) {
      release(new Lease(held));
      throw ex;
    }
  }

  /** Who a download is for, and where an APPLICATION copy goes. */
  private record Target(String user, OsAccount account, Path appDir) {}

  /** The container no longer uses its resources; the shared caches shrink to their target if they can. */
  public void release(Lease lease) {
    List<Path> doomed = new ArrayList<>();
    synchronized (shared) {
      for (Path dir : lease.held()) shared.release(dir, clock.millis());
      for (Path dir : shared.evictAbove(targetBytes)) {
        forgetCopy(dir);
        doomed.add(dir);
      }
    }
    for (Path dir : doomed) {
      LOG.info("localized resource evicted from the cache dir={}", dir);
      forgetRecord(dir);
      deleteTree(dir);
    }
  }

  /**
   * The latest disk check: new copies go to the good local directories only, and copies on one
   * that failed are forgotten (a container asking for them again gets a new download); the failed
   * directory is not touched while it is failed.
   *
   * @param goodNodeRoots the node's folders in the local directories found good
   * @return the copies forgotten on directories found good again, for the caller to delete
   */
  public List<Path> useDisks(List<Path> goodNodeRoots) {
    CacheDirs.Change change = dirs.useGood(goodNodeRoots);
    List<Path> lost;
    List<Path> stale = new ArrayList<>();
    synchronized (shared) {
      lost = copies.keySet().stream().filter(dir -> change.failed().stream().anyMatch(dir::startsWith)).toList();
      for (Path dir : lost) {
        shared.forget(dir);
        forgetCopy(dir);
        abandoned.add(dir);
      }
      abandoned.removeIf(dir -> change.back().stream().anyMatch(dir::startsWith) && stale.add(dir));
    }
    lost.forEach(this::forgetRecord);
    if (!change.failed().isEmpty()) {
      LOG.warn("local directories failed: {}; {} cached resources there are forgotten", change.failed(), lost.size());
    }
    return stale;
  }

  /**
   * Drops a copy from the maps; the caller holds {@code shared}'s lock, and forgets its record
   * ({@link #forgetRecord}) once it let go of the lock.
   */
  private void forgetCopy(Path dir) {
    subdirs.released(CacheSubdirs.cacheOf(dir), subdirOf(dir));
    LocalizedResource key = copies.remove(dir);
    if (key != null) {
      localized.computeIfPresent(key, (k, f) -> {
        Path local = f.getNow(null);
        return local != null && local.getParent().equals(dir) ? null : f;
      });
    }
  }

  private void forgetRecord(Path copy) {
    records.forgotten(copy.getFileName().toString());
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

  /** The local path of the resource, downloaded by this call or by one before it, and counted in use. */
  private Path acquire(LocalizedResource key, LocalResource r, Target target) throws IOException {
    while (true) {
      CompletableFuture<Path> mine = new CompletableFuture<>();
      CompletableFuture<Path> existing = localized.putIfAbsent(key, mine);
      if (existing == null) download(key, r, target, mine);
      CompletableFuture<Path> entry = existing == null ? mine : existing;
      Path local;
      try {
        local = entry.join();
      } catch (CompletionException e) {
        throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
      }
      Path dir = local.getParent();
      synchronized (shared) {
        // Evicted, or its directory failed, between its download and now: localize it again.
        if (localized.get(key) != entry) continue;
        if (Files.exists(local, LinkOption.NOFOLLOW_LINKS)) {
          if (key.visibility() != LocalResource.Visibility.APPLICATION) shared.retain(dir, clock.millis());
          return local;
        }
        // As YARN: a copy someone deleted is localized again rather than linked dangling.
        LOG.info("localized resource {} is missing, localizing it again", local);
        localized.remove(key, entry);
        shared.forget(dir);
        if (copies.containsKey(dir)) forgetCopy(dir);
      }
      // What is left of a shared copy goes; an APPLICATION one goes with its application.
      if (key.visibility() != LocalResource.Visibility.APPLICATION) {
        forgetRecord(dir);
        deleteTree(dir);
      }
    }
  }

  /** The cache a new copy goes to, made as {@link CacheOwnership} says. */
  private Path cacheFor(LocalizedResource key, Target target) throws IOException {
    if (key.visibility() == LocalResource.Visibility.APPLICATION) return target.appDir().getParent();
    Path root = CacheOwnership.sharedDir(dirs.next(), target.account());
    if (key.visibility() == LocalResource.Visibility.PUBLIC) {
      return CacheOwnership.sharedDir(root.resolve("filecache"), target.account());
    }
    Path user = CacheOwnership.userPassage(CacheOwnership.sharedDir(root.resolve("usercache"), target.account())
        .resolve(ContainerLayout.safeName(target.user())), target.account());
    return CacheOwnership.userPassage(user.resolve("filecache"), target.account());
  }

  /** The directory {@code relative} below {@code cache}, each level made as the cache is. */
  private static Path subdir(Path cache, String relative, LocalResource.Visibility visibility, OsAccount account)
      throws IOException {
    Path dir = cache;
    for (String part : relative.split("/")) {
      if (part.isEmpty()) continue;
      dir = visibility == LocalResource.Visibility.PUBLIC ? CacheOwnership.sharedDir(dir.resolve(part), account)
          : CacheOwnership.userPassage(dir.resolve(part), account);
    }
    return dir;
  }

  private void download(LocalizedResource key, LocalResource r, Target target, CompletableFuture<Path> result) {
    String unique = key.dirName() + "-" + UUID.randomUUID().toString().substring(0, 8);
    Path tmp = null;
    Path cache = null;
    String relative = null;
    boolean forApp = key.visibility() == LocalResource.Visibility.APPLICATION;
    try {
      // An APPLICATION copy is made in the node's appcache folder, where its user cannot interfere.
      cache = cacheFor(key, target);
      Path place = cache;
      if (!forApp) {
        relative = subdirs.take(cache);
        place = subdir(cache, relative, key.visibility(), target.account());
      }
      tmp = place.resolve((forApp ? "." : "") + unique + TMP);
      Files.createDirectories(tmp);
      String name = key.fileName();
      Path fetched = tmp.resolve(name + ".download");
      // A PUBLIC file is read by the node once every user could read it (Fetcher checks); others as their user.
      fetcher.fetch(r, fetched, clock.millis(),
          key.visibility() == LocalResource.Visibility.PUBLIC ? null : target.account());
      switch (r.type()) {
        case FILE -> Files.move(fetched, tmp.resolve(name));
        case ARCHIVE -> Unpacker.unpack(fetched, name, tmp.resolve(name), null);
        case PATTERN -> {
          Unpacker.unpack(fetched, name, tmp.resolve(name), r.pattern());
          Files.copy(fetched, tmp.resolve(name).resolve(name), StandardCopyOption.REPLACE_EXISTING);
        }
      }
      Files.deleteIfExists(fetched);
      long bytes = sizeOf(tmp);
      CacheOwnership.handOver(tmp, key.visibility(), target.account());
      Path dir = forApp ? CacheOwnership.placeInAppDir(tmp, target.appDir(), unique, target.account())
          : Files.move(tmp, place.resolve(unique));
      LOG.info("resource localized resource={} visibility={} bytes={} dir={}", r.resource(), r.visibility(), bytes, dir);
      if (!forApp) {
        records.localized(new StoredResource(unique, key.visibility(), key.owner(), key.resource(), key.timestamp(),
            key.type(), key.pattern(), dir.toString(), name, bytes));
      }
      // Counted and published together, so that an eviction sees no copy half-registered.
      synchronized (shared) {
        if (!forApp) {
          shared.added(dir, bytes, clock.millis());
          copies.put(dir, key);
        }
        result.complete(dir.resolve(name));
      }
    } catch (IOException | RuntimeException e) {
      if (tmp != null) deleteTree(tmp);
      if (relative != null) subdirs.released(cache, relative);
      localized.remove(key, result);
      LOG.warn("resource localization failed resource={} reason={}", r.resource(), e.toString());
      result.completeExceptionally(e instanceof IOException ? e : new IOException(e.toString(), e));
    }
  }

  private static long sizeOf(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).mapToLong(p -> {
        try {
          return Files.size(p);
        } catch (IOException e) {
          return 0;
        }
      }).sum();
    }
  }

  private static void deleteTree(Path dir) {
    try {
      Deletions.deleteTree(dir);
    } catch (IOException e) {
      LOG.warn("cannot delete a localized resource dir={} reason={}", dir, e.toString());
    }
  }
}
