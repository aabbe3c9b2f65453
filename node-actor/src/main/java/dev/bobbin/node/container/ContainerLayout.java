package dev.bobbin.node.container;

import java.nio.file.Path;
import java.util.List;

/**
 * Where a node keeps container directories, below its own folder in the work dir so that several
 * NodeManagers on one machine never share one: {@code <work>/<node>/usercache/<user>/appcache/<app>/<container>}
 * and {@code <work>/<node>/logs/<app>/<container>}, as YARN lays out its local and log dirs.
 */
public final class ContainerLayout {
  private final Path nodeRoot;

  public ContainerLayout(Path workDir, String nodeId) {
    this.nodeRoot = workDir.toAbsolutePath().normalize().resolve(safeName(nodeId));
  }

  public record Dirs(Path appLocalDir, Path workDir, Path logDir) {}

  public Dirs dirsFor(String user, String applicationId, String containerId) {
    Path appDir = nodeRoot.resolve("usercache").resolve(safeName(user)).resolve("appcache").resolve(applicationId);
    return new Dirs(appDir, appDir.resolve(containerId), nodeRoot.resolve("logs").resolve(applicationId).resolve(containerId));
  }

  /** A container's log directory, as {@link #dirsFor} lays it out. */
  public Path logDir(String applicationId, String containerId) {
    return nodeRoot.resolve("logs").resolve(applicationId).resolve(containerId);
  }

  /**
   * The directories of a container that runs as its user, from {@link #dirsFor}'s layout: {@code
   * shared} are the node's own ({@code <node>}, {@code usercache}, {@code logs}); {@code passThrough}
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
    return new UserDirs(List.of(usercache.getParent(), usercache, logs), List.of(userDir, appcache, appLogDir), appDir);
  }

  public Path nodeRoot() {
    return nodeRoot;
  }

  /** Host names and users may hold ':' or '/', which must not reach the file system. */
  public static String safeName(String s) {
    String cleaned = s.replaceAll("[^A-Za-z0-9._-]", "_");
    return cleaned.isEmpty() || cleaned.equals(".") || cleaned.equals("..") ? "_" + cleaned : cleaned;
  }
}
