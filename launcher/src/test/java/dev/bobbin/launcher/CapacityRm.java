package dev.bobbin.launcher;

import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.NmSettings;
import dev.bobbin.config.NodeCredential;
import dev.bobbin.node.server.NodeManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code bobbin rm --scheduler capacity --capacity-file FILE} in its own process, and a NodeManager of
 * 8 GB and 8 vcores joined to it, for whole-flow tests of the Capacity scheduler.
 */
final class CapacityRm implements AutoCloseable {
  private final Process process;
  private final Path data;
  /** The RM's REST API: {@code http://127.0.0.1:PORT/ws/v1/cluster}. */
  final String base;
  private NodeManager nm;

  private CapacityRm(Process process, Path data, String base) {
    this.process = process;
    this.data = data;
    this.base = base;
  }

  /** Starts the RM with its data and log under {@code dir}, and waits until it serves. */
  static CapacityRm start(Path dir, Path capacityFile) throws Exception {
    int port = RestApiIT.freePort();
    Path data = dir.resolve("rm");
    Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx512m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), Main.class.getName(), "rm",
        "--scheduler", "capacity", "--capacity-file", capacityFile.toString(), "--data-dir", data.toString(),
        "--hostname", "127.0.0.1", "--http-port", Integer.toString(port),
        "--cluster-port", Integer.toString(RestApiIT.freePort()))
        .redirectErrorStream(true).redirectOutput(dir.resolve("rm.log").toFile()).start();
    CapacityRm rm = new CapacityRm(process, data, "http://127.0.0.1:" + port + "/ws/v1/cluster");
    Http.await(Duration.ofSeconds(90), "the RM to serve", () -> {
      if (!process.isAlive()) throw new IllegalStateException("the RM exited: " + Files.readString(dir.resolve("rm.log")));
      return Http.get(rm.base + "/info", Duration.ofSeconds(2)).status() == 200;
    });
    return rm;
  }

  /** Joins a NodeManager working under {@code dir} and waits until the RM lists it RUNNING. */
  void startNode(Path dir) throws Exception {
    nm = NodeManager.start(NmSettings.from(ConfigFactory.parseMap(Map.of(
        "bobbin.nm.rm-addresses", List.of(base.replace("/ws/v1/cluster", "")),
        "bobbin.nm.http-port", RestApiIT.freePort(),
        "bobbin.nm.memory-mb", 8192,
        "bobbin.nm.vcores", 8,
        "bobbin.nm.node-credential-file", data.resolve(NodeCredential.FILE_NAME).toString(),
        "bobbin.nm.work-dir", dir.resolve("nm").toString())).withFallback(ConfigFactory.load())));
    Http.await(Duration.ofSeconds(30), "the node", () ->
        Http.get(base + "/nodes?states=RUNNING").json().path("nodes").path("node").size() == 1);
  }

  @Override
  public void close() throws Exception {
    if (nm != null) nm.close();
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
  }
}
