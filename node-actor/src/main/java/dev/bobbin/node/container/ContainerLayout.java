package dev.bobbin.node.container;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where a node keeps container directories, below its own folder in each local and log directory so
 * that several NodeManagers on one machine never share one: {@code
 * <local>/<node>/usercache/<user>/appcache/<app>/<container>} and {@code
 * <log>/<node>/logs/<app>/<container>}, as YARN lays out its local and log dirs. With several local
 * (or log) directories, each container goes to one of those currently good, spread by its id.
 */
public final class ContainerLayout {
  private final List<Path> usercacheDirs;
  private final List<Path> logsDirs;

  /** Local and log directories both in {@code workDir}. */
  public ContainerLayout(Path workDir, String nodeId) {
    this(List.of(workDir), List.of(workDir), nodeId);
  }

  public ContainerLayout(List<Path> localRoots, List<Path> logRoots, String nodeId) {
    if (localRoots.isEmpty() || logRoots.isEmpty()) throw new IllegalArgumentException("no local or no log directory");
    this.usercacheDirs = localRoots.stream().map(r -> nodeFolder(r, nodeId).resolve("usercache")).toList();
    this.logsDirs = logRoots.stream().map(r -> nodeFolder(r, nodeId).resolve("logs")).toList();
  }

  public record Dirs(Path appLocalDir, Path workDir, Path logDir) {}

  /** The node's {@code usercache} folder in each local directory: what the disk checks look at. */
  public List<Path> localDirs() {
    return usercacheDirs;
  }

  /** The node's {@code logs} folder in each log directory. */
  public List<Path> logDirs() {
    return logsDirs;
  }

  /** In the first local and log directory. */
  public Dirs dirsFor(String user, String applicationId, String containerId) {
    return dirsFor(user, applicationId, containerId, usercacheDirs, logsDirs);
  }

  /**
   * In one of {@code goodLocal} and one of {@code goodLog}, entries of {@link #localDirs()} and
   * {@link #logDirs()}, chosen by the container's id.
   */
  public Dirs dirsFor(String user, String applicationId, String containerId, List<Path> goodLocal, List<Path> goodLog) {
    Path usercache = pick(goodLocal, containerId);
    Path appDir = usercache.resolve(safeName(user)).resolve("appcache").resolve(applicationId);
    return new Dirs(appDir, appDir.resolve(containerId), pick(goodLog, containerId).resolve(applicationId).resolve(containerId));
  }

  private static Path pick(List<Path> dirs, String containerId) {
    return dirs.get(Math.floorMod(containerId.hashCode(), dirs.size()));
  }

  /**
   * A container's log directory, as {@link #dirsFor} lays it out: the one of the log directories
   * that holds it, since the one chosen for it depended on which were good then.
   */
  public Path logDir(String applicationId, String containerId) {
    for (Path logs : logsDirs) {
      Path dir = logs.resolve(applicationId).resolve(containerId);
      if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) return dir;
    }
    return pick(logsDirs, containerId).resolve(applicationId).resolve(containerId);
  }

  /**
   * The directories of a container that runs as its user, from {@link #dirsFor}'s layout: {@code
   * shared} are the node's own ({@code <node>} and {@code usercache} in the local directory, {@code
   * <node>} and {@code logs} in the log directory); {@code passThrough}
   * the NodeManager keeps but lets only that user through ({@code usercache/<user>}, its {@code
   * appcache}, {@code logs/<app>}), so the user can never swap one of them for a link; {@code
   * appDir} the application's local dir, and the spec's work and log dirs, belong to the user.
   */
  public record UserDirs(List<Path> shared, List<Path> passThrough, Path appDir) {}

  public static UserDirs userDirs(LaunchSpec spec) {
    Path appDir = spec.workDir().getParent();
    Path appcache = appDir.getParent();
    Path userDir = appcache.getParent();
    Path usercache = userDir.getParent();
    Path appLogDir = spec.logDir().getParent();
    Path logs = appLogDir.getParent();
    List<Path> shared = Stream.of(usercache.getParent(), usercache, logs.getParent(), logs).distinct().toList();
    return new UserDirs(shared, List.of(userDir, appcache, appLogDir), appDir);
  }

  /** The node's folder in its first local directory. */
  public Path nodeRoot() {
    return usercacheDirs.get(0).getParent();
  }

  private static Path nodeFolder(Path root, String nodeId) {
    return root.toAbsolutePath().normalize().resolve(safeName(nodeId));
  }

  /** Host names and users may hold ':' or '/', which must not reach the file system. */
  public static String safeName(String s) {
    String cleaned = s.replaceAll("[^A-Za-z0-9._-]", "_");
    return cleaned.isEmpty() || cleaned.equals(".") || cleaned.equals("..") ? "_" + cleaned : cleaned;
  }
}
