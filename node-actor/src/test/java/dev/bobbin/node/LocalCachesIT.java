package dev.bobbin.node;

import static dev.bobbin.node.NmFixture.containerId;
import static dev.bobbin.node.NmFixture.newApplicationId;
import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.NmHealthSettings;
import dev.bobbin.config.NmSettings;
import dev.bobbin.node.container.ContainerLayout;
import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.LocalResource;
import dev.bobbin.protocol.LocalResource.Type;
import dev.bobbin.protocol.LocalResource.Visibility;
import dev.bobbin.protocol.node.ContainerManagement.StartContainerRequest;
import dev.bobbin.protocol.node.ContainerManagement.StartContainersRequest;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PUBLIC and PRIVATE caches of a NodeManager with real containers: spread over its local
 * directories, moved off one that fails and deleted from it once it is repaired; with recovery on, used again by the NodeManager
 * started next on the same directories instead of downloaded again, and counted towards the cache
 * target there; without it, deleted at that start.
 */
class LocalCachesIT {
  private static final int BIG = 600 * 1024;
  @TempDir Path workDir;
  @TempDir Path sources;
  NmFixture fx;
  TestingRm rm;
  FileServer server;
  int port;
  List<Path> localDirs;

  @BeforeEach
  void setUp() throws IOException {
    fx = new NmFixture(workDir);
    rm = fx.rm();
    server = new FileServer(sources);
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
  }

  @AfterEach
  void tearDown() {
    fx.close();
    server.close();
  }

  private NodeManager startNm(List<Path> localDirs, String config) {
    this.localDirs = localDirs;
    NmSettings s = fx.settings(List.of(rm.url()));
    NmHealthSettings checks = new NmHealthSettings(Optional.empty(), List.of(), Duration.ofMinutes(10),
        Duration.ofMinutes(20), true, Duration.ofMillis(100), 0.25, 100.0, 0);
    NmSettings settings = new NmSettings(s.rmAddresses(), s.hostname(), port, s.memoryMb(), s.vcores(), s.rack(),
        s.workDir(), s.heartbeatInterval(), s.killGrace(), s.http(), s.nodeCredentialFile(), localDirs,
        List.of(workDir.resolve("logs")), checks);
    NodeManager nm = NodeManager.start(settings, ConfigFactory.parseString(
        "bobbin.nm.localizer.cache.target-size-mb = 1\n" + config).withFallback(ConfigFactory.load()));
    fx.closeables.add(0, nm);
    return nm;
  }

  private NodeManager startNm(String config) {
    return startNm(List.of(workDir.resolve("local")), config);
  }

  /** Runs one container of a new application with these resources, as alice, to its end; its work dir. */
  private Path run(NodeManager nm, Map<String, LocalResource> resources, String command) {
    String app = newApplicationId();
    String id = containerId(app, 1);
    var request = new StartContainersRequest(List.of(new StartContainerRequest(rm.containerToken(id, nm.nodeId()),
        new ContainerLaunchContext(List.of(command), Map.of(), resources))));
    assertThat(new NmHttp(nm.httpAddress()).start(request).succeeded()).containsExactly(id);
    fx.eventually(Duration.ofSeconds(30), () -> assertThat(rm.lastReported(id)).get()
        .returns(0, ContainerStatus::exitStatus));
    return localDirs.stream()
        .map(d -> new ContainerLayout(List.of(d), List.of(d), nm.nodeId()).dirsFor("alice", app, id).workDir())
        .filter(Files::isDirectory).findFirst().orElseThrow();
  }

  /** The cached copy a container's work dir links to as {@code name}. */
  private static Path copy(Path containerWorkDir, String name) throws IOException {
    return Files.readSymbolicLink(containerWorkDir.resolve(name)).getParent();
  }

  @Test
  void copiesSpreadOverTheLocalDirectoriesLeaveOneThatFailsAndGoFromItOnceItIsRepaired() throws IOException {
    Path d1 = workDir.resolve("d1");
    Path d2 = workDir.resolve("d2");
    NodeManager nm = startNm(List.of(d1, d2), "");
    var a = server.resource(server.source("a.txt", "a".getBytes()), Type.FILE, Visibility.PUBLIC);
    var b = server.resource(server.source("b.txt", "b".getBytes()), Type.FILE, Visibility.PRIVATE);
    fx.eventually(() -> assertThat(rm.heartbeats).isNotEmpty());
    Path first = run(nm, Map.of("a", a, "b", b), "cat a b");
    Path copyA = copy(first, "a");
    Path copyB = copy(first, "b");
    assertThat(List.of(copyA.startsWith(d1), copyB.startsWith(d1))).containsExactlyInAnyOrder(true, false);
    Path onD1 = copyA.startsWith(d1) ? copyA : copyB;
    String onD1Name = onD1 == copyA ? "a" : "b";
    String onD2Name = onD1 == copyA ? "b" : "a";

    // d1's containers folder becomes a file: the disk check fails d1.
    Path usercache = new ContainerLayout(List.of(d1), List.of(d1), nm.nodeId()).localDirs().get(0);
    dev.bobbin.node.cleanup.Deletions.deleteTree(usercache);
    Files.writeString(usercache, "not a directory");
    fx.eventually(() -> assertThat(rm.heartbeats.get(rm.heartbeats.size() - 1).healthReport())
        .contains("1/2 local-dirs failed: " + usercache));

    Path second = run(nm, Map.of("a", a, "b", b), "cat a b");
    assertThat(copy(second, onD1Name)).startsWith(d2).isNotEqualTo(onD1);
    assertThat(copy(second, onD2Name)).isEqualTo(onD1 == copyA ? copyB : copyA);
    assertThat(server.downloads(onD1Name + ".txt")).isEqualTo(2);
    assertThat(server.downloads(onD2Name + ".txt")).isEqualTo(1);

    // Repaired: the disk check finds d1 good again, and the copy forgotten there is deleted.
    Files.delete(usercache);
    fx.eventually(() -> assertThat(rm.heartbeats.get(rm.heartbeats.size() - 1).healthReport()).isEmpty());
    fx.eventually(() -> assertThat(onD1).doesNotExist());
  }

  @Test
  void withRecoveryARestartedNodeUsesItsCachedCopiesAndCountsThem() throws IOException {
    String recovery = "bobbin.nm.recovery.enabled = true";
    NodeManager first = startNm(recovery);
    var big = server.resource(server.source("big.bin", new byte[BIG]), Type.FILE, Visibility.PUBLIC);
    var own = server.resource(server.source("own.txt", "mine\n".getBytes()), Type.FILE, Visibility.PRIVATE);
    fx.eventually(() -> assertThat(rm.heartbeats).isNotEmpty());
    Path before = run(first, Map.of("big.bin", big, "own.txt", own), "wc -c < big.bin && cat own.txt");
    Path bigCopy = copy(before, "big.bin");
    Path ownCopy = copy(before, "own.txt");
    first.close();
    fx.closeables.remove(first);

    NodeManager second = startNm(recovery);
    fx.eventually(() -> assertThat(rm.registrations).hasSizeGreaterThan(1));
    Path after = run(second, Map.of("own.txt", own), "cat own.txt");
    assertThat(copy(after, "own.txt")).isEqualTo(ownCopy);
    assertThat(server.downloads("own.txt")).isEqualTo(1);

    // Over the 1 MB target with the recovered copy: the least recently used, the recovered big one, goes.
    var other = server.resource(server.source("other.bin", new byte[BIG]), Type.FILE, Visibility.PUBLIC);
    run(second, Map.of("other.bin", other), "wc -c < other.bin");
    fx.eventually(() -> assertThat(bigCopy).doesNotExist());
    assertThat(ownCopy).exists();
  }

  @Test
  void withoutRecoveryARestartedNodeDeletesWhatItsCachesHeldAndDownloadsAgain() throws IOException {
    NodeManager first = startNm("");
    var own = server.resource(server.source("own.txt", "mine\n".getBytes()), Type.FILE, Visibility.PRIVATE);
    fx.eventually(() -> assertThat(rm.heartbeats).isNotEmpty());
    Path ownCopy = copy(run(first, Map.of("own.txt", own), "cat own.txt"), "own.txt");
    first.close();
    fx.closeables.remove(first);

    NodeManager second = startNm("");
    fx.eventually(() -> assertThat(rm.registrations).hasSizeGreaterThan(1));
    assertThat(ownCopy).doesNotExist();
    assertThat(copy(run(second, Map.of("own.txt", own), "cat own.txt"), "own.txt")).isNotEqualTo(ownCopy);
    assertThat(server.downloads("own.txt")).isEqualTo(2);
  }
}
