package dev.bobbin.config;

import com.typesafe.config.Config;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Work-preserving NodeManager restart, {@code bobbin.nm.recovery} (YARN's {@code
 * yarn.nodemanager.recovery.*}): whether the agent keeps its containers' state on disk so that an
 * agent restarted on the same work directory and port takes its running containers back.
 *
 * @param dir where the state is kept; empty for {@code recovery} in the node's own directory
 * @param supervised whether a stop leaves the containers running for the next agent to recover,
 *     as when a supervisor restarts the agent (otherwise a stop kills them, and only an agent that
 *     dies leaves them running)
 * @param processCheckInterval how often the process of a container taken back after a restart is
 *     looked at to see whether it ended: it is no child of the new agent, which cannot wait for it
 */
public record NmRecoverySettings(
    boolean enabled, Optional<Path> dir, boolean supervised, Duration processCheckInterval) {

  static final String KEY = "bobbin.nm.recovery";

  public static final NmRecoverySettings DISABLED =
      new NmRecoverySettings(false, Optional.empty(), false, Duration.ofSeconds(1));

  public static NmRecoverySettings from(Config root) {
    Config c = root.getConfig(KEY);
    boolean enabled = c.getBoolean("enabled");
    boolean supervised = c.getBoolean("supervised");
    if (supervised && !enabled) {
      throw new SettingsException(KEY + ".supervised", "keeps containers running for a restarted NodeManager to "
          + "recover, and needs " + KEY + ".enabled = true");
    }
    Duration interval = c.getDuration("process-check-interval");
    if (interval.isNegative() || interval.isZero()) {
      throw new SettingsException(KEY + ".process-check-interval", "must be positive, was "
          + c.getString("process-check-interval"));
    }
    String dir = c.getString("dir");
    return new NmRecoverySettings(enabled, dir.isBlank() ? Optional.empty() : Optional.of(Path.of(dir)), supervised,
        interval);
  }

  /**
   * Refuses a port chosen at start (0) with recovery on: a restarted NodeManager takes its
   * containers back under the same node id (host:port), as YARN refuses an ephemeral port.
   */
  public void checkPort(int httpPort) {
    if (enabled && httpPort == 0) {
      throw new SettingsException("bobbin.nm.http-port", "must be a fixed port with " + KEY + ".enabled: a "
          + "restarted NodeManager takes its containers back under the same node id (host:port)");
    }
  }

  /** Whether a stop of the agent leaves its containers running. */
  public boolean keepsContainersOnStop() {
    return enabled && supervised;
  }
}
