package dev.bobbin.node;

import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.ContainerExecutorSettings;
import dev.bobbin.config.HttpLimits;
import dev.bobbin.config.NmHealthSettings;
import dev.bobbin.config.NmSettings;
import dev.bobbin.config.NodeCredential;
import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.Ids;
import dev.bobbin.protocol.node.ContainerManagement.StartContainerRequest;
import dev.bobbin.protocol.node.ContainerManagement.StartContainersRequest;
import dev.bobbin.protocol.node.ContainerManagement.StartContainersResponse;
import dev.bobbin.protocol.node.ContainerManagement.StopContainersRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;

/**
 * Shared set-up of the whole-flow tests: settings, ids, waiting, and one RM + NM pair. A test class
 * that needs one per test registers it, {@code @RegisterExtension final NmFixture fx = NmFixture.perTest();},
 * and gets a work directory of its own, deleted with everything the fixture started after each test.
 */
final class NmFixture implements AutoCloseable, AfterEachCallback {
  static final long CLUSTER_TS = 1_700_000_000_000L;
  private static final AtomicInteger APP_SEQ = new AtomicInteger();

  final ActorTestKit testKit = ActorTestKit.create();
  final List<AutoCloseable> closeables = new ArrayList<>();
  final Path workDir;

  private final boolean ownsWorkDir;

  NmFixture(Path workDir) {
    this(workDir, false);
  }

  private NmFixture(Path workDir, boolean ownsWorkDir) {
    this.workDir = workDir;
    this.ownsWorkDir = ownsWorkDir;
  }

  static NmFixture perTest() {
    try {
      return new NmFixture(Files.createTempDirectory("bobbin-nm-it"), true);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void afterEach(ExtensionContext context) throws IOException {
    close();
    if (ownsWorkDir) {
      try (Stream<Path> all = Files.walk(workDir)) {
        for (Path p : all.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
      }
    }
  }

  NmSettings settings(List<String> rmAddresses) {
    return settings(rmAddresses, 0);
  }

  /** On {@code httpPort}: 0 for any free one, or the port of a node to start again. */
  NmSettings settings(List<String> rmAddresses, int httpPort) {
    credential();
    return new NmSettings(rmAddresses, "127.0.0.1", httpPort, 4096, 4, "/rack-a", workDir,
        Duration.ofMillis(100), Duration.ofMillis(300), HttpLimits.from(ConfigFactory.defaultReference()),
        Optional.of(credentialFile()));
  }

  /** The same, with these health checks. */
  NmSettings settings(List<String> rmAddresses, NmHealthSettings health) {
    NmSettings s = settings(rmAddresses);
    return new NmSettings(s.rmAddresses(), s.hostname(), s.httpPort(), s.memoryMb(), s.vcores(), s.rack(), s.workDir(),
        s.heartbeatInterval(), s.killGrace(), s.http(), s.nodeCredentialFile(), s.localDirs(), s.logDirs(), health);
  }

  /** The node credential the NodeManagers present, made on first use as an RM member makes it. */
  String credential() {
    return NodeCredential.readOrCreate(credentialFile(), "test").value();
  }

  private Path credentialFile() {
    return workDir.resolve(NodeCredential.FILE_NAME);
  }

  TestingRm rm() {
    TestingRm rm = TestingRm.start();
    closeables.add(rm);
    return rm;
  }

  NodeManager nm(List<String> rmAddresses) {
    NodeManager nm = NodeManager.start(settings(rmAddresses));
    closeables.add(0, nm);
    return nm;
  }

  /** Starts an NM against {@code rm} and waits until it has registered. */
  NodeManager registeredNm(TestingRm rm) {
    NodeManager nm = nm(List.of(rm.url()));
    eventually(() -> org.assertj.core.api.Assertions.assertThat(rm.heartbeats).isNotEmpty());
    return nm;
  }

  /** The same, with these settings over the defaults. */
  NodeManager registeredNm(TestingRm rm, com.typesafe.config.Config overrides) {
    NodeManager nm = NodeManager.start(settings(List.of(rm.url())), overrides.withFallback(ConfigFactory.load()));
    closeables.add(0, nm);
    eventually(() -> org.assertj.core.api.Assertions.assertThat(rm.heartbeats).isNotEmpty());
    return nm;
  }

  /** The same, running containers as {@code executor} says. */
  NodeManager registeredNm(TestingRm rm, ContainerExecutorSettings executor) {
    NodeManager nm = NodeManager.start(settings(List.of(rm.url())), executor);
    closeables.add(0, nm);
    eventually(() -> org.assertj.core.api.Assertions.assertThat(rm.heartbeats).isNotEmpty());
    return nm;
  }

  static String newApplicationId() {
    return Ids.applicationId(CLUSTER_TS, APP_SEQ.incrementAndGet());
  }

  static String containerId(String applicationId, int n) {
    return Ids.containerId(Ids.attemptId(applicationId, 1), 0, n);
  }

  static StartContainersRequest startRequest(String token, String... commands) {
    return startRequest(token, Map.of(), commands);
  }

  static StartContainersRequest startRequest(String token, Map<String, String> env, String... commands) {
    return new StartContainersRequest(
        List.of(new StartContainerRequest(token, new ContainerLaunchContext(List.of(commands), env))));
  }

  StartContainersResponse startOne(NmHttp http, TestingRm rm, NodeManager nm, String containerId, String... commands) {
    return http.start(startRequest(rm.containerToken(containerId, nm.nodeId()), commands));
  }

  static StopContainersRequest stopRequest(String token) {
    return new StopContainersRequest(List.of(token));
  }

  void eventually(Runnable assertion) {
    eventually(Duration.ofSeconds(15), assertion);
  }

  void eventually(Duration max, Runnable assertion) {
    testKit.createTestProbe().awaitAssert(max, Duration.ofMillis(50), () -> {
      assertion.run();
      return null;
    });
  }

  @Override
  public void close() {
    for (AutoCloseable c : closeables) {
      try {
        c.close();
      } catch (Exception e) {
        throw new IllegalStateException("cannot close " + c, e);
      }
    }
    testKit.shutdownTestKit();
  }
}
