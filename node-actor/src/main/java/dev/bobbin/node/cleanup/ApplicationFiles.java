package dev.bobbin.node.cleanup;

import dev.bobbin.config.NmCleanupSettings;
import dev.bobbin.node.container.ContainerLayout;
import dev.bobbin.node.logs.ApplicationLogs;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.apache.pekko.actor.typed.ActorRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The directories each application has on this node, in every local and log directory, until they
 * go: once the RM said the application ended and none of its containers runs here any more, its
 * local directories are deleted after the debug delay and its logs after their retention (aggregated
 * first when the node aggregates). Owned by the node actor and touched only from it.
 */
public final class ApplicationFiles {
  private static final Logger log = LoggerFactory.getLogger(ApplicationFiles.class);

  private record Dirs(Set<Path> local, Set<Path> logs) {
    static Dirs none() {
      return new Dirs(new HashSet<>(), new HashSet<>());
    }
  }

  private final Map<String, Dirs> dirs = new HashMap<>();
  private final Set<String> ended = new LinkedHashSet<>();
  private final int endedHistory;
  private final ContainerLayout layout;
  private final NmCleanupSettings cleanup;
  private final ActorRef<DeletionService.Command> deletions;
  private final ApplicationLogs logs;

  /** @param endedHistory how many ended applications are remembered, oldest forgotten first */
  public ApplicationFiles(ContainerLayout layout, NmCleanupSettings cleanup,
      ActorRef<DeletionService.Command> deletions, ApplicationLogs logs, int endedHistory) {
    this.layout = layout;
    this.cleanup = cleanup;
    this.deletions = deletions;
    this.logs = logs;
    this.endedHistory = endedHistory;
  }

  /**
   * Deletes what an earlier run on these directories left, when it is due: no container of it runs
   * here any more, except those of {@code takenBack}, the applications this run takes back.
   */
  public void deleteLeftovers(Set<String> takenBack, Instant now) {
    try {
      for (Deletions.Due due : Deletions.leftovers(layout.localDirs(), layout.logDirs(), cleanup.logRetain(), now)) {
        if (takenBack.contains(due.path().getFileName().toString())) continue;
        deletions.tell(new DeletionService.DeleteAfter(due.path(), Duration.between(now, due.at())));
      }
    } catch (IOException e) {
      log.warn("Could not look for what an earlier run left under {}: {}", layout.localDirs(), e.toString());
    }
  }

  /** An application the state store names: its directories may be in any local and log directory. */
  public void recovered(String applicationId, String user) {
    Dirs d = dirs.computeIfAbsent(applicationId, a -> Dirs.none());
    for (Path usercache : layout.localDirs()) {
      d.local().add(usercache.resolve(ContainerLayout.safeName(user)).resolve("appcache").resolve(applicationId));
    }
    for (Path dir : layout.logDirs()) d.logs().add(dir.resolve(applicationId));
  }

  /** A container of the application has its working and log directories here. */
  public void containerDirs(String applicationId, Path workDir, Path logDir) {
    Dirs d = dirs.computeIfAbsent(applicationId, a -> Dirs.none());
    d.local().add(workDir.getParent());
    d.logs().add(logDir.getParent());
  }

  /** The same, for a container of {@code user} this run reports on: its logs are the node's to keep. */
  public void ran(String applicationId, String user, Path workDir, Path logDir) {
    containerDirs(applicationId, workDir, logDir);
    logs.ran(applicationId, user);
  }

  /** @return whether the RM's word that the application ended is news */
  public boolean end(String applicationId) {
    if (!ended.add(applicationId)) return false;
    while (ended.size() > endedHistory) ended.remove(ended.iterator().next());
    return true;
  }

  /** The applications the RM said ended, as far as this node remembers. */
  public Set<String> ended() {
    return Set.copyOf(ended);
  }

  /** Whether the application's directories may go now: it ended, and {@code containersLeft} is false. */
  public boolean due(String applicationId, boolean containersLeft) {
    return !containersLeft && ended.contains(applicationId) && dirs.containsKey(applicationId);
  }

  /** Hands the application's directories to the deletions and its logs to their retention. */
  public void delete(String applicationId) {
    Dirs d = dirs.remove(applicationId);
    if (d == null) return;
    d.local().forEach(p -> deletions.tell(new DeletionService.DeleteAfter(p, cleanup.deleteDebugDelay())));
    logs.ended(applicationId, d.logs());
  }
}
