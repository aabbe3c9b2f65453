package dev.bobbin.node.logs;

import dev.bobbin.node.cleanup.Deletions;
import dev.bobbin.node.container.ContainerLayout;
import dev.bobbin.protocol.Ids;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The cluster's aggregated logs: one directory per application, one below it per node that ran
 * the application, one below that per container, holding the container's log files as they were:
 * {@code <root>/<user>/logs/<application>/<node>/<container>/<file>}, the node named as YARN names
 * its aggregated file ({@code host_port}). Plain files, so that any tool reads them.
 *
 * <p>A node writes its part into a hidden directory ({@code .<node>.partial}) and renames it into
 * place when complete, so a reader sees a node's logs whole or not at all.
 */
public final class AggregatedLogs {
  static final String SUFFIX = "logs";
  private static final String PARTIAL = ".partial";

  private AggregatedLogs() {}

  /** One container's aggregated logs. */
  public record ContainerLogs(String node, String containerId, Path dir) {}

  public static Path appDir(Path root, String user, String applicationId) {
    return root.resolve(ContainerLayout.safeName(user)).resolve(SUFFIX).resolve(applicationId);
  }

  /** The directory a node's logs of an application are in, as {@link #copy} leaves them. */
  public static Path nodeDir(Path root, String user, String applicationId, String nodeId) {
    return appDir(root, user, applicationId).resolve(nodeName(nodeId));
  }

  /** {@code host:port} as a file name: {@code host_port}. */
  public static String nodeName(String nodeId) {
    return ContainerLayout.safeName(nodeId);
  }

  /**
   * Copies a node's log directory of an application ({@code <node>/logs/<application>}, one
   * directory per container) into the application's aggregated logs, replacing what that node put
   * there before. Regular files only, none through a link.
   *
   * @return how many files were copied
   */
  public static int copy(Path localAppLogs, Path root, String user, String applicationId, String nodeId)
      throws IOException {
    return copy(List.of(localAppLogs), root, user, applicationId, nodeId);
  }

  /** The same from each of the node's log directories that holds some of the application's logs. */
  public static int copy(List<Path> localAppLogs, Path root, String user, String applicationId, String nodeId)
      throws IOException {
    Path appDir = appDir(root, user, applicationId);
    Files.createDirectories(appDir);
    String node = nodeName(nodeId);
    Path partial = appDir.resolve("." + node + PARTIAL);
    Deletions.deleteTree(partial);
    Files.createDirectory(partial);
    int copied = 0;
    List<Path> containers = new ArrayList<>();
    for (Path dir : localAppLogs) containers.addAll(Deletions.children(dir));
    for (Path container : containers) {
      Path target = Files.createDirectory(partial.resolve(container.getFileName().toString()));
      for (LogFiles.LogFile f : LogFiles.list(container)) {
        Optional<InputStream> opened = LogFiles.open(container, f.name());
        if (opened.isEmpty()) continue;
        Path copy = target.resolve(f.name());
        try (InputStream in = opened.get()) {
          Files.copy(in, copy);
        }
        Files.setLastModifiedTime(copy, FileTime.from(f.lastModified()));
        copied++;
      }
    }
    Path complete = appDir.resolve(node);
    Deletions.deleteTree(complete);
    Files.move(partial, complete, StandardCopyOption.ATOMIC_MOVE);
    return copied;
  }

  /** Every container's aggregated logs in an application's directory, by container, then node. */
  public static List<ContainerLogs> containers(Path appDir) throws IOException {
    List<ContainerLogs> out = new ArrayList<>();
    for (Path node : Deletions.children(appDir)) {
      String name = node.getFileName().toString();
      if (name.startsWith(".")) continue;
      for (Path container : Deletions.children(node)) {
        out.add(new ContainerLogs(name, container.getFileName().toString(), container));
      }
    }
    out.sort(Comparator.comparing(ContainerLogs::containerId).thenComparing(ContainerLogs::node));
    return out;
  }

  /** The directories of an application under any user (for a reader who does not know its owner). */
  public static List<Path> appDirs(Path root, String applicationId) throws IOException {
    List<Path> out = new ArrayList<>();
    for (Path user : Deletions.children(root)) {
      Path app = user.resolve(SUFFIX).resolve(applicationId);
      if (Files.isDirectory(app, LinkOption.NOFOLLOW_LINKS)) out.add(app);
    }
    return out;
  }

  /**
   * The applications' directories under {@code root} that nothing has changed since {@code
   * cutoff}: neither the directory itself nor any node's part of it. Only directories named as
   * applications are considered, so nothing else kept under the same root is ever touched.
   */
  public static List<Path> unchangedSince(Path root, Instant cutoff) throws IOException {
    List<Path> out = new ArrayList<>();
    for (Path user : Deletions.children(root)) {
      for (Path app : Deletions.children(user.resolve(SUFFIX))) {
        if (Ids.isApplicationId(app.getFileName().toString()) && lastChange(app).isBefore(cutoff)) out.add(app);
      }
    }
    return out;
  }

  private static Instant lastChange(Path app) throws IOException {
    Instant last = modified(app);
    for (Path node : Deletions.children(app)) {
      Instant m = modified(node);
      if (m.isAfter(last)) last = m;
    }
    return last;
  }

  private static Instant modified(Path p) throws IOException {
    return Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS).toInstant();
  }
}
