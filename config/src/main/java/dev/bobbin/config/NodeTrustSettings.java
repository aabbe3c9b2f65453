package dev.bobbin.config;

import com.typesafe.config.Config;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Which NodeManagers an RM member lets in: those that present the node credential in {@code
 * credentialFile} (configured, or {@code node-credential} in the data directory, made on first
 * start), and, when host lists are configured, whose host is included and not excluded (YARN's
 * {@code yarn.resourcemanager.nodes.include-path} and {@code exclude-path}).
 */
public record NodeTrustSettings(
    Path credentialFile, boolean credentialConfigured, Optional<Path> includePath, Optional<Path> excludePath,
    Duration gracefulDecommissionTimeout, Duration nodeRemovalUntrackedTimeout) {

  public NodeTrustSettings(Path credentialFile, boolean credentialConfigured, Optional<Path> includePath,
      Optional<Path> excludePath) {
    this(credentialFile, credentialConfigured, includePath, excludePath, Duration.ofHours(1), Duration.ofSeconds(60));
  }

  static final String CREDENTIAL_FILE = "bobbin.rm.node-credential-file";

  static NodeTrustSettings from(Config rm, Path dataDir) {
    String configured = rm.getString("node-credential-file");
    return new NodeTrustSettings(
        configured.isBlank() ? dataDir.resolve(NodeCredential.FILE_NAME) : Path.of(configured),
        !configured.isBlank(), path(rm, "nodes.include-path"), path(rm, "nodes.exclude-path"),
        gracefulTimeout(rm), untrackedTimeout(rm));
  }

  private static Duration untrackedTimeout(Config rm) {
    Duration d = rm.getDuration("node-removal-untracked-timeout");
    if (d.isZero() || d.isNegative()) {
      throw new SettingsException("bobbin.rm.node-removal-untracked-timeout", "must be positive, was " + d);
    }
    return d;
  }

  private static Duration gracefulTimeout(Config rm) {
    Duration d = rm.getDuration("nodes.graceful-decommission-timeout");
    if (d.isNegative()) {
      throw new SettingsException("bobbin.rm.nodes.graceful-decommission-timeout", "must be 0 or more, was " + d);
    }
    return d;
  }

  private static Optional<Path> path(Config rm, String key) {
    String p = rm.getString(key);
    return p.isBlank() ? Optional.empty() : Optional.of(Path.of(p));
  }
}
