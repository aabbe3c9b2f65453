package dev.bobbin.launcher;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.NmSettings;
import dev.bobbin.node.server.NodeManager;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** NodeManagers for whole-flow tests: 4 GB and 4 vcores each unless said, joined to one RM member. */
final class ItNodes {
  private ItNodes() {}

  /** A NodeManager working in {@code workDir}, on a free port. */
  static NodeManager start(RmMember rm, Path workDir) throws Exception {
    return start(rm, workDir, 4096, 4);
  }

  static NodeManager start(RmMember rm, Path workDir, int memoryMb, int vCores) throws Exception {
    return start(rm.url(), rm.nodeCredentialFile(), workDir, memoryMb, vCores, Map.of());
  }

  /** With {@code settings} over the usual ones (HOCON paths to values). */
  static NodeManager start(RmMember rm, Path workDir, int memoryMb, int vCores, Map<String, ?> settings)
      throws Exception {
    return start(rm.url(), rm.nodeCredentialFile(), workDir, memoryMb, vCores, settings);
  }

  /** Joined to the member at {@code rmUrl}, a process of its own, with the node credential it wrote. */
  static NodeManager start(String rmUrl, Path nodeCredential, Path workDir) throws Exception {
    return start(rmUrl, nodeCredential, workDir, 4096, 4, Map.of());
  }

  /** With {@code settings} over the usual ones (4 GB, 4 vcores), for example the log aggregation's. */
  static NodeManager start(RmMember rm, Path workDir, Config settings) throws Exception {
    return start(rm.url(), rm.nodeCredentialFile(), workDir, settings, 4096, 4);
  }

  private static NodeManager start(String rmUrl, Path nodeCredential, Path workDir, int memoryMb, int vCores,
      Map<String, ?> settings) throws Exception {
    return start(rmUrl, nodeCredential, workDir, ConfigFactory.parseMap(settings), memoryMb, vCores);
  }

  private static NodeManager start(String rmUrl, Path nodeCredential, Path workDir, Config settings, int memoryMb,
      int vCores) throws Exception {
    Config config = settings.withFallback(config(rmUrl, nodeCredential, workDir, memoryMb, vCores));
    return NodeManager.start(NmSettings.from(config), config);
  }

  private static Config config(String rmUrl, Path nodeCredential, Path workDir, int memoryMb, int vCores)
      throws Exception {
    return ConfigFactory.parseMap(Map.of(
        "bobbin.nm.rm-addresses", List.of(rmUrl),
        "bobbin.nm.http-port", RestApiIT.freePort(),
        "bobbin.nm.memory-mb", memoryMb,
        "bobbin.nm.vcores", vCores,
        "bobbin.nm.node-credential-file", nodeCredential.toString(),
        "bobbin.nm.work-dir", workDir.toString())).withFallback(ConfigFactory.load());
  }
}
