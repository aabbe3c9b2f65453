package dev.bobbin.node.health;

import dev.bobbin.config.NmHealthSettings;
import java.nio.file.Path;
import java.util.List;

/** Checks the node's local and log directories against the configured thresholds. Blocks on the file system. */
public final class DiskChecker {
  private final List<Path> localDirs;
  private final List<Path> logDirs;
  private final NmHealthSettings settings;
  private final DiskThresholds thresholds;

  public DiskChecker(List<Path> localDirs, List<Path> logDirs, NmHealthSettings settings) {
    this.localDirs = List.copyOf(localDirs);
    this.logDirs = List.copyOf(logDirs);
    this.settings = settings;
    this.thresholds = new DiskThresholds(settings.maxDiskUtilizationPercent(), settings.minFreeSpaceMb());
  }

  public DisksHealth check(long now) {
    if (!settings.diskCheckEnabled()) return DisksHealth.unchecked(localDirs, logDirs, now);
    return DisksHealth.of(check(localDirs), check(logDirs), settings.minHealthyDisks(), now);
  }

  private List<DisksHealth.DirCheck> check(List<Path> dirs) {
    return dirs.stream().map(d -> new DisksHealth.DirCheck(d, thresholds.problem(DirProbe.of(d)))).toList();
  }
}
