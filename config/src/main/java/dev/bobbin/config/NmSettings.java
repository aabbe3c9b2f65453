package dev.bobbin.config;

import com.typesafe.config.Config;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code bobbin.nm} section of a NodeManager agent. -1 memory or vcores means detect. The work
 * directory, unless configured, is {@code nm-<http-port>} under the data root ({@link DataRoot}), so
 * that NodeManagers on one host do not share one. {@code nodeCredentialFile} holds the cluster's node
 * credential, without which the RM refuses the node (empty when none is configured). Containers'
 * directories go under {@code localDirs} and their logs under {@code logDirs}, both the work
 * directory unless configured; {@code health} says how the node checks them and itself.
 */
public record NmSettings(
    List<String> rmAddresses,
    String hostname,
    int httpPort,
    long memoryMb,
    int vcores,
    String rack,
    Path workDir,
    Duration heartbeatInterval,
    Duration killGrace,
    HttpLimits http,
    Optional<Path> nodeCredentialFile,
    List<Path> localDirs,
    List<Path> logDirs,
    NmHealthSettings health) {

  static final String CREDENTIAL_FILE = "bobbin.nm.node-credential-file";

  public NmSettings {
    localDirs = List.copyOf(localDirs);
    logDirs = List.copyOf(logDirs);
  }

  /** Local and log directories in the work directory, and YARN's default health checks. */
  public NmSettings(
      List<String> rmAddresses, String hostname, int httpPort, long memoryMb, int vcores, String rack, Path workDir,
      Duration heartbeatInterval, Duration killGrace, HttpLimits http, Optional<Path> nodeCredentialFile) {
    this(rmAddresses, hostname, httpPort, memoryMb, vcores, rack, workDir, heartbeatInterval, killGrace, http,
        nodeCredentialFile, List.of(workDir), List.of(workDir), NmHealthSettings.DEFAULTS);
  }

  public static NmSettings from(Config root) {
    return from(root, System.getenv(), System.getProperty("user.home"));
  }

  /** With the environment and home directory the default work directory is found from. */
  static NmSettings from(Config root, Map<String, String> env, String userHome) {
    Config c = root.getConfig("bobbin.nm");
    List<String> rms = c.getStringList("rm-addresses");
    if (rms.isEmpty()) {
      throw new SettingsException("bobbin.nm.rm-addresses", "must name at least one RM address");
    }
    long mem = c.getLong("memory-mb");
    int vcores = c.getInt("vcores");
    if (mem == 0 || mem < -1) throw new SettingsException("bobbin.nm.memory-mb", "must be positive or -1");
    if (vcores == 0 || vcores < -1) throw new SettingsException("bobbin.nm.vcores", "must be positive or -1");
    int httpPort = Settings.port(c, "http-port");
    String configuredWorkDir = c.getString("work-dir");
    Path workDir = configuredWorkDir.isBlank()
        ? DataRoot.resolve(c.getString("data-dir"), env, userHome).resolve("nm-" + httpPort)
        : Path.of(configuredWorkDir);
    return new NmSettings(
        List.copyOf(rms),
        c.getString("hostname"),
        httpPort,
        mem,
        vcores,
        c.getString("rack"),
        workDir,
        c.getDuration("heartbeat-interval"),
        c.getDuration("kill-grace"),
        HttpLimits.from(root),
        c.getString("node-credential-file").isBlank()
            ? Optional.empty() : Optional.of(Path.of(c.getString("node-credential-file"))),
        dirs(c, "local-dirs", workDir),
        dirs(c, "log-dirs", workDir),
        NmHealthSettings.from(c));
  }

  /** The configured directories, or the work directory alone when none are. */
  private static List<Path> dirs(Config nm, String key, Path workDir) {
    List<String> dirs = nm.getStringList(key);
    if (dirs.stream().anyMatch(String::isBlank)) throw new SettingsException("bobbin.nm." + key, "names an empty path");
    return dirs.isEmpty() ? List.of(workDir) : dirs.stream().map(Path::of).distinct().toList();
  }

  /** The node credential, read from its file; refused, naming the setting, when there is none. */
  public String nodeCredential() {
    Path file = nodeCredentialFile.orElseThrow(() -> new SettingsException(CREDENTIAL_FILE, "no node credential:"
        + " an RM member writes the cluster's into its data directory as " + NodeCredential.FILE_NAME
        + " (and says so as it starts); give a copy of it with --node-credential FILE"));
    return NodeCredential.read(file, CREDENTIAL_FILE);
  }

  /** Memory to offer: configured, or 80% of the machine's physical memory. */
  public long effectiveMemoryMb() {
    if (memoryMb > 0) return memoryMb;
    var os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      return Math.max(1024, sun.getTotalMemorySize() / (1024 * 1024) * 8 / 10);
    }
    return 8192;
  }

  public int effectiveVcores() {
    return vcores > 0 ? vcores : Runtime.getRuntime().availableProcessors();
  }
}
