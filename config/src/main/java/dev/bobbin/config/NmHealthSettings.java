package dev.bobbin.config;

import com.typesafe.config.Config;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * How a NodeManager checks its own health, as YARN's NodeHealthCheckerService: an optional health
 * script ({@code bobbin.nm.health-checker}) and checks of its local and log directories ({@code
 * bobbin.nm.disk-health-checker}).
 *
 * @param scriptPath the script, run every {@code scriptInterval} with {@code scriptOpts}; none when not configured
 * @param scriptTimeout a run that takes longer is stopped and makes the node unhealthy
 * @param diskCheckEnabled whether directories are checked at all
 * @param minHealthyDisks the share of local directories, and of log directories, that must be good
 * @param maxDiskUtilizationPercent a directory on a disk used above this is full
 * @param minFreeSpaceMb a directory on a disk with less free space than this is full
 */
public record NmHealthSettings(
    Optional<Path> scriptPath,
    List<String> scriptOpts,
    Duration scriptInterval,
    Duration scriptTimeout,
    boolean diskCheckEnabled,
    Duration diskCheckInterval,
    double minHealthyDisks,
    double maxDiskUtilizationPercent,
    long minFreeSpaceMb) {

  static final String SCRIPT = "bobbin.nm.health-checker.";
  static final String DISKS = "bobbin.nm.disk-health-checker.";

  public NmHealthSettings {
    scriptOpts = List.copyOf(scriptOpts);
  }

  /** YARN's defaults: no script, directories checked every 2 minutes. */
  public static final NmHealthSettings DEFAULTS = new NmHealthSettings(Optional.empty(), List.of(),
      Duration.ofMinutes(10), Duration.ofMinutes(20), true, Duration.ofMinutes(2), 0.25, 90.0, 0);

  /** Reads {@code bobbin.nm}'s two sections; refuses, naming the key, what cannot be honoured. */
  static NmHealthSettings from(Config nm) {
    Config script = nm.getConfig("health-checker");
    Config disks = nm.getConfig("disk-health-checker");
    String path = script.getString("script-path");
    Optional<Path> scriptPath = path.isBlank() ? Optional.empty() : Optional.of(Path.of(path));
    scriptPath.ifPresent(p -> {
      if (!Files.isRegularFile(p) || !Files.isExecutable(p)) {
        throw new SettingsException(SCRIPT + "script-path", p + " is not an executable file");
      }
    });
    double minHealthy = disks.getDouble("min-healthy-disks");
    if (minHealthy < 0 || minHealthy > 1) {
      throw new SettingsException(DISKS + "min-healthy-disks", "must be a fraction between 0 and 1, not " + minHealthy);
    }
    double maxUtilization = disks.getDouble("max-disk-utilization-per-disk-percentage");
    if (maxUtilization < 0 || maxUtilization > 100) {
      throw new SettingsException(DISKS + "max-disk-utilization-per-disk-percentage",
          "must be a percentage between 0 and 100, not " + maxUtilization);
    }
    long minFree = disks.getLong("min-free-space-per-disk-mb");
    if (minFree < 0) throw new SettingsException(DISKS + "min-free-space-per-disk-mb", "must not be negative");
    return new NmHealthSettings(scriptPath, script.getStringList("script-opts"),
        positive(script, SCRIPT, "interval"), positive(script, SCRIPT, "timeout"), disks.getBoolean("enable"),
        positive(disks, DISKS, "interval"), minHealthy, maxUtilization, minFree);
  }

  private static Duration positive(Config c, String prefix, String key) {
    Duration d = c.getDuration(key);
    if (d.isZero() || d.isNegative()) throw new SettingsException(prefix + key, "must be positive");
    return d;
  }
}
