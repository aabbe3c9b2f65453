package dev.bobbin.node.server;

import dev.bobbin.node.NodeAgent;
import dev.bobbin.node.NodeIdentity;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.auth.Authentication;
import dev.bobbin.auth.Identity;
import dev.bobbin.auth.UserAuthenticators;
import dev.bobbin.config.ContainerExecutorSettings;
import dev.bobbin.config.ContainerMonitorSettings;
import dev.bobbin.config.NmCgroupsSettings;
import dev.bobbin.config.NmCleanupSettings;
import dev.bobbin.config.NmRecoverySettings;
import dev.bobbin.config.HttpTls;
import dev.bobbin.config.NmSettings;
import dev.bobbin.config.security.SecuritySettings;
import dev.bobbin.http.server.HttpServers;
import dev.bobbin.node.container.ContainerExecutors;
import dev.bobbin.node.container.ContainerLayout;
import dev.bobbin.node.container.ProcessLauncher;
import dev.bobbin.node.container.UserProcessLauncher;
import dev.bobbin.node.aux.AuxServices;
import dev.bobbin.config.AuxServiceSettings;
import dev.bobbin.node.http.ContainerAccess;
import dev.bobbin.node.http.NodeMetrics;
import dev.bobbin.node.http.NodeRoutes;
import dev.bobbin.node.recovery.StateRecorder;
import dev.bobbin.protocol.client.BobbinHttp;
import dev.bobbin.protocol.client.Credentials;
import dev.bobbin.protocol.client.ResourceTrackerClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.pekko.Done;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A NodeManager agent: its own ActorSystem ("bobbin-nm", never a cluster member), the HTTP API,
 * and the node actor that registers with the RM and runs containers as OS processes.
 *
 * <pre>{@code
 * try (NodeManager nm = NodeManager.start(NmSettings.from(Settings.load(null)))) {
 *   System.out.println("serving " + nm.nodeId());
 *   nm.whenTerminated().toCompletableFuture().join();
 * }
 * }</pre>
 */
public final class NodeManager implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(NodeManager.class);
  private static final Duration BIND_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration ASK_TIMEOUT = Duration.ofSeconds(10);
  private static final String SLF4J_LOGGING =
      "pekko.loggers = [\"org.apache.pekko.event.slf4j.Slf4jLogger\"]\n"
          + "pekko.logging-filter = \"org.apache.pekko.event.slf4j.Slf4jLoggingFilter\"\n";

  private final ActorSystem<NodeAgent.Command> system;
  private final HttpServers.Bound binding;
  private final NodeIdentity identity;

  private NodeManager(ActorSystem<NodeAgent.Command> system, HttpServers.Bound binding, NodeIdentity identity) {
    this.system = system;
    this.binding = binding;
    this.identity = identity;
  }

  /** Starts with Pekko configuration from application.conf / reference.conf. */
  public static NodeManager start(NmSettings settings) {
    return start(settings, ConfigFactory.load());
  }

  /**
   * Starts with the given Pekko configuration (for example the launcher's loaded file), presenting
   * the node credential of the settings to the RM.
   *
   * @throws dev.bobbin.config.SettingsException when no usable node credential is configured
   */
  public static NodeManager start(NmSettings settings, Config pekkoConfig) {
    return start(settings, pekkoConfig,
        ContainerExecutorSettings.from(pekkoConfig.withFallback(ConfigFactory.defaultReference())));
  }

  /** Runs containers as {@code executor} says (the launcher's loaded file may set it). */
  public static NodeManager start(NmSettings settings, ContainerExecutorSettings executor) {
    return start(settings, ConfigFactory.load(), executor);
  }

  public static NodeManager start(NmSettings settings, Config pekkoConfig, ContainerExecutorSettings executor) {
    Config nm = withDefaults(pekkoConfig).getConfig("bobbin.nm");
    return start(settings, pekkoConfig, new ResourceTrackerClient(BobbinHttp.builder()
            .connectTimeout(nm.getDuration("rm-connect-timeout")).requestTimeout(nm.getDuration("rm-request-timeout"))
            .tls(HttpServers.clientTls(tls(pekkoConfig)))
            .credentials(Credentials.nodeCredential(settings.nodeCredential())).build()),
        ContainerExecutors.launcher(executor, containerDirs(settings)), Clock.systemUTC());
  }

  private static List<Path> containerDirs(NmSettings settings) {
    return Stream.concat(settings.localDirs().stream(), settings.logDirs().stream()).distinct().toList();
  }

  /** With other ports to the RM, to processes and to time; tests use this. */
  public static NodeManager start(
      NmSettings settings, Config pekkoConfig, ResourceTrackerClient rm, ProcessLauncher launcher, Clock clock) {
    Config config = ConfigFactory.parseString(SLF4J_LOGGING).withFallback(pekkoConfig);
    Config resolved = config.withFallback(ConfigFactory.defaultReference()).resolve();
    SecuritySettings security = SecuritySettings.from(config.withFallback(ConfigFactory.defaultReference()).resolve());
    Authentication<Identity> users = new Authentication<>(UserAuthenticators.from(security), "NM");
    StateRecorder state = openStateStore(settings, NmRecoverySettings.from(resolved));
    AuxServices aux = AuxServices.load(AuxServiceSettings.from(resolved), NodeManager.class.getClassLoader(),
        launcher instanceof UserProcessLauncher);
    aux.start();
    ActorSystem<NodeAgent.Command> system =
        ActorSystem.create(NodeAgent.create(settings, ContainerMonitorSettings.from(resolved),
            NmCgroupsSettings.from(resolved), NmCleanupSettings.from(resolved), rm, launcher, clock, state, aux),
            "bobbin-nm", config);
    HttpServers.Bound binding;
    try {
      binding = HttpServers.bind(system, settings.hostname(), settings.httpPort(),
              HttpTls.httpsPort(withDefaults(pekkoConfig), "bobbin.nm"), tls(pekkoConfig), settings.http(),
              new NodeRoutes(system, system.scheduler(), ASK_TIMEOUT, new NodeMetrics(), settings.http(), users,
                  ContainerAccess.of(security), aux.routes()).routes())
          .toCompletableFuture()
          .get(BIND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException | ExecutionException | TimeoutException | RuntimeException e) {
      system.terminate();
      aux.stop();
      // A key store or setting that cannot be used says so itself.
      if (e instanceof RuntimeException r) throw r;
      if (e instanceof InterruptedException) Thread.currentThread().interrupt();
      Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
      throw new IllegalStateException(
          "NodeManager cannot listen on " + settings.hostname() + ":" + settings.httpPort() + ": " + cause, cause);
    }
    NodeIdentity identity = new NodeIdentity(settings.hostname(), binding.main().localAddress().getPort(), binding.scheme());
    CoordinatedShutdown shutdown = CoordinatedShutdown.get(system);
    shutdown.addTask(CoordinatedShutdown.PhaseServiceUnbind(), "nm-http-unbind",
        () -> binding.unbind().thenApply(x -> Done.getInstance()));
    if (binding.https().isPresent()) {
      log.info("NodeManager serving HTTPS on {} as well", binding.https().get().localAddress());
    }
    // Also on JVM exit: containers must not outlive the agent that watches them (unless a supervised
    // recovery leaves them to the next agent).
    shutdown.addTask(CoordinatedShutdown.PhaseServiceStop(), "nm-kill-containers",
        () -> AskPattern.ask(system, NodeAgent.Shutdown::new, settings.killGrace().plusSeconds(5), system.scheduler()));
    // After the containers: a service may still be told of their ends until then.
    shutdown.addTask(CoordinatedShutdown.PhaseBeforeActorSystemTerminate(), "nm-aux-services-stop", () -> {
      aux.stop();
      return java.util.concurrent.CompletableFuture.completedFuture(Done.getInstance());
    });
    system.tell(new NodeAgent.Start(identity));
    return new NodeManager(system, binding, identity);
  }

  /** With recovery on, the store in the node's own directory (its port is fixed), read before the node starts. */
  private static StateRecorder openStateStore(NmSettings settings, NmRecoverySettings recovery) {
    recovery.checkPort(settings.httpPort());
    String nodeId = new NodeIdentity(settings.hostname(), settings.httpPort()).nodeId();
    return StateRecorder.open(recovery, new ContainerLayout(settings.workDir(), nodeId).nodeRoot());
  }

  /** host:port, the port being the bound HTTP port. */
  public String nodeId() {
    return identity.nodeId();
  }

  public String httpAddress() {
    return identity.httpAddress();
  }

  public int boundPort() {
    return binding.main().localAddress().getPort();
  }

  /** The HTTPS port when the node serves both HTTP and HTTPS. */
  public OptionalInt httpsPort() {
    return binding.https().map(h -> OptionalInt.of(h.localAddress().getPort())).orElse(OptionalInt.empty());
  }

  /** {@code http} or {@code https}: how the HTTP port, and so {@link #httpAddress()}, is reached. */
  public String scheme() {
    return binding.scheme();
  }

  private static Config withDefaults(Config config) {
    return config.withFallback(ConfigFactory.defaultReference());
  }

  private static HttpTls tls(Config config) {
    return HttpTls.from(withDefaults(config));
  }

  /** Kills the containers, unbinds HTTP and terminates the ActorSystem. */
  public CompletionStage<Done> stop() {
    return CoordinatedShutdown.get(system).runAll(CoordinatedShutdown.unknownReason());
  }

  public CompletionStage<Done> whenTerminated() {
    return system.getWhenTerminated();
  }

  @Override
  public void close() {
    try {
      stop().toCompletableFuture().get(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      system.terminate();
    }
  }
}
