package dev.bobbin.launcher;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.HttpLimits;
import dev.bobbin.config.HttpTls;
import dev.bobbin.config.RmSettings;
import dev.bobbin.config.SchedulerSettings;
import dev.bobbin.config.SettingsException;
import dev.bobbin.config.security.SecuritySettings;
import dev.bobbin.core.access.AccessRules;
import dev.bobbin.core.policies.PolicySets;
import dev.bobbin.core.RmCore;
import dev.bobbin.http.RmHttpApi;
import dev.bobbin.http.server.HttpServers;
import dev.bobbin.persistence.JournalConfig;
import dev.bobbin.persistence.JournalSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.pekko.Done;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.AddressFromURIString;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Subscribe;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running RM member: its actor system, its actors and its HTTP server. It stops through
 * Pekko's coordinated shutdown, whoever starts that (a JVM shutdown hook on SIGTERM, the cluster
 * downing this member, or {@link #close()}): the HTTP API unbinds first, then the shard regions
 * hand their shards over, the member leaves the cluster and the singletons move.
 */
public final class RmMember implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RmMember.class);
  /** How long requests in flight may take to finish once the HTTP API stopped accepting connections. */
  static final Duration HTTP_DRAIN = Duration.ofSeconds(3);
  /** How long a member without seed nodes may take to be up in the cluster it forms alone. */
  private static final Duration ALONE_UP = Duration.ofSeconds(30);

  /** Coordinated shutdown's reason when {@link #close()} stops the member (never exits the JVM). */
  public static final class Closed implements CoordinatedShutdown.Reason {
    static final Closed INSTANCE = new Closed();

    @Override
    public String toString() {
      return "closed by its owner";
    }
  }

  /** Coordinated shutdown's reason when the member failed to start (never exits the JVM). */
  public static final class StartFailed implements CoordinatedShutdown.Reason {
    static final StartFailed INSTANCE = new StartFailed();

    @Override
    public String toString() {
      return "start failed";
    }
  }

  private final ActorSystem<Void> system;
  private final RmCore core;
  private final HttpServers.Bound binding;
  private final Path nodeCredentialFile;

  private RmMember(ActorSystem<Void> system, RmCore core, HttpServers.Bound binding, Path nodeCredentialFile) {
    this.nodeCredentialFile = nodeCredentialFile;
    this.system = system;
    this.core = core;
    this.binding = binding;
  }

  /**
   * Starts a member from what the user configured (see {@code Settings.userConfig}): the
   * {@code bobbin} section and any Pekko overrides, layered over the RM's Pekko defaults.
   */
  public static RmMember start(Config user) throws Exception {
    return start(user, () -> user);
  }

  /** @param reload reads the user's configuration again, for a queue refresh */
  public static RmMember start(Config user, java.util.function.Supplier<Config> reload) throws Exception {
    Config withRm = user.withFallback(ConfigFactory.parseResources("bobbin-rm.conf"))
        .withFallback(ConfigFactory.defaultReference()).resolve();
    RmSettings rm = RmSettings.from(withRm);
    SchedulerSettings scheduler = SchedulerSettings.from(withRm);
    HttpLimits http = HttpLimits.from(withRm);
    SecuritySettings security = SecuritySettings.from(withRm);
    refuseManagementPort(user);
    Config full = JournalConfig.overlay(withRm, rm.dataDir().toAbsolutePath()).withFallback(withRm).resolve();
    FencingTiming.check(full);
    ClusterJoin join = new ClusterJoin(full, seedNodes(full));
    HttpTls tls = HttpTls.from(full).requireServerKeys();
    ActorSystem<Void> system = ClusterTls.createSystem(Behaviors.empty(), "bobbin", join.systemConfig(full), tls);
    try {
      logShutdownReason(system);
      ClusterJoin.answerProbes(system);
      JournalSchema.ensure(system).toCompletableFuture().get(60, TimeUnit.SECONDS);
      Cluster cluster = Cluster.get(system);
      system.systemActorOf(membershipLog(cluster), "bobbin-membership-log", Props.empty());
      join.join(system);
      String self = (tls.httpsOnly() ? "https://" : "http://") + rm.hostname() + ":" + rm.httpPort();
      List<String> addresses = full.hasPath("bobbin.rm.addresses") && !full.getStringList("bobbin.rm.addresses").isEmpty()
          ? full.getStringList("bobbin.rm.addresses") : List.of(self);
      RmCore core = new RmCore(system, rm, scheduler, addresses, PolicySets.load(withRm, scheduler),
          () -> PolicySets.load(reload.get().withFallback(ConfigFactory.parseResources("bobbin-rm.conf"))
              .withFallback(ConfigFactory.defaultReference()).resolve(), scheduler), accessRules(security));
      HttpServers.Bound binding = HttpServers.bind(system, rm.hostname(), rm.httpPort(),
              HttpTls.httpsPort(full, "bobbin.rm"), tls, http, new RmHttpApi(system, core, security, http).routes())
          .toCompletableFuture().get(30, TimeUnit.SECONDS);
      unbindOnShutdown(system, binding.main(), "http");
      binding.https().ifPresent(https -> unbindOnShutdown(system, https, "https"));
      // The HTTP API answers 503 until the member is up (ServeGate). A member that forms a cluster
      // on its own is up within a second: its caller (a test, the quick start) gets it serving.
      if (seedNodes(full).isEmpty()) awaitUp(system, ALONE_UP);
      log.info("RM member up: {} {}{} cluster {}{} journal {} data {}", binding.scheme().toUpperCase(Locale.ROOT),
          binding.main().localAddress(), binding.https().map(h -> " HTTPS " + h.localAddress()).orElse(""),
          cluster.selfMember().address(), tls.cluster() ? " (TLS)" : "",
          full.getString("bobbin.persistence.journal"), rm.dataDir().toAbsolutePath());
      log.info("RM member security: {} authentication, ACLs {}, administrators '{}'", security.auth().lowerName(),
          security.aclEnabled() ? "on" : "off", core.access().admins());
      return new RmMember(system, core, binding, rm.nodeTrust().credentialFile().toAbsolutePath());
    } catch (Exception e) {
      CoordinatedShutdown.get(system).runAll(StartFailed.INSTANCE);
      throw e;
    }
  }

  /**
   * Pekko Management's endpoints are served on the HTTP API's port (RmHttpApi), so a host or port of
   * their own would be read by no one.
   */
  static void refuseManagementPort(Config user) {
    for (String key : List.of("hostname", "port", "bind-hostname", "bind-port")) {
      String path = "pekko.management.http." + key;
      if (user.hasPath(path)) {
        throw new SettingsException(path, "is not used: the cluster's management endpoints and health checks are"
            + " served on the RM's HTTP port (bobbin.rm.http-port, and bobbin.rm.https-port under HTTP_AND_HTTPS)");
      }
    }
  }

  private static void awaitUp(ActorSystem<?> system, Duration limit) throws Exception {
    CompletableFuture<Done> up = new CompletableFuture<>();
    org.apache.pekko.cluster.Cluster.get(org.apache.pekko.actor.typed.javadsl.Adapter.toClassic(system))
        .registerOnMemberUp(() -> up.complete(Done.getInstance()));
    try {
      up.get(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("the member was not up in its own cluster within " + limit.toSeconds() + " s");
    }
  }

  /** As Hadoop's AdminACLsManager: the user the member runs as administers it, whatever the list says. */
  static AccessRules accessRules(SecuritySettings security) {
    return new AccessRules(security.aclEnabled(), security.adminAcl().withUser(System.getProperty("user.name")));
  }

  private static List<Address> seedNodes(Config config) {
    List<Address> seeds = new ArrayList<>();
    for (String s : config.getStringList("pekko.cluster.seed-nodes")) {
      try {
        seeds.add(AddressFromURIString.parse(s.trim()));
      } catch (RuntimeException e) {
        throw new SettingsException("pekko.cluster.seed-nodes", "'" + s + "' is not an address like pekko://bobbin@host:2551");
      }
    }
    return seeds;
  }

  /**
   * The HTTP API stops first when the member stops: no new connections once shutdown begins (so
   * clients, NMs and AMs go to another member), then up to {@link #drain} for requests in flight,
   * which still reach this member's shards; only then do the shards move.
   */
  private static void unbindOnShutdown(ActorSystem<?> system, ServerBinding binding, String port) {
    CoordinatedShutdown cs = CoordinatedShutdown.get(system);
    cs.addTask(CoordinatedShutdown.PhaseServiceUnbind(), "bobbin-" + port + "-unbind", () -> {
      log.info("RM member stopping: {} no longer accepts connections", binding.localAddress());
      return binding.unbind();
    });
    cs.addTask(CoordinatedShutdown.PhaseServiceRequestsDone(), "bobbin-" + port + "-drain",
        () -> binding.terminate(drain(cs.getShutdownReason())).thenApply(t -> Done.getInstance()));
  }

  /**
   * How long requests in flight may still take: none for a member the cluster downed, whose shard
   * regions have stopped, so that nothing they could answer is left; closing their connections at
   * once sends their callers to another member, and the process ends a few seconds sooner.
   */
  static Duration drain(java.util.Optional<CoordinatedShutdown.Reason> reason) {
    return reason.filter(r -> r == CoordinatedShutdown.clusterDowningReason()).isPresent() ? NO_DRAIN : HTTP_DRAIN;
  }

  /** The shortest deadline the HTTP server's terminate takes (it refuses zero): connections close at once. */
  static final Duration NO_DRAIN = Duration.ofMillis(1);

  /** Says in the log why the member stops, first thing in its shutdown. */
  private static void logShutdownReason(ActorSystem<?> system) {
    CoordinatedShutdown cs = CoordinatedShutdown.get(system);
    cs.addTask(CoordinatedShutdown.PhaseBeforeServiceUnbind(), "bobbin-log-reason", () -> {
      String reason = cs.getShutdownReason().map(RmMember::describe).orElse("unknown");
      if (cs.getShutdownReason().filter(r -> r == CoordinatedShutdown.clusterDowningReason()).isPresent()) {
        log.warn("RM member stopping: {}", reason);
      } else {
        log.info("RM member stopping: {}", reason);
      }
      return CompletableFuture.completedFuture(Done.getInstance());
    });
  }

  static String describe(CoordinatedShutdown.Reason r) {
    if (r == CoordinatedShutdown.jvmExitReason()) return "JVM exit (SIGTERM, SIGINT or System.exit), leaving the cluster";
    if (r == CoordinatedShutdown.clusterDowningReason()) {
      return "the cluster downed this member (it was unreachable, or on the losing side of a split)";
    }
    if (r == CoordinatedShutdown.clusterLeavingReason()) return "left the cluster";
    if (r == CoordinatedShutdown.clusterJoinUnsuccessfulReason()) return "could not join the seed nodes";
    if (r == CoordinatedShutdown.incompatibleConfigurationDetectedReason()) {
      return "its configuration is incompatible with the cluster's";
    }
    return r.toString();
  }

  /**
   * Logs every membership change with the resulting member list, under this class's logger: the
   * launcher's logback.xml keeps Pekko's own loggers at WARN, which would hide joins and leaves.
   */
  private static Behavior<ClusterEvent.ClusterDomainEvent> membershipLog(Cluster cluster) {
    return Behaviors.setup(ctx -> {
      ActorRef<ClusterEvent.ClusterDomainEvent> self = ctx.getSelf();
      cluster.subscriptions().tell(Subscribe.create(self.narrow(), ClusterEvent.MemberEvent.class));
      cluster.subscriptions().tell(Subscribe.create(self.narrow(), ClusterEvent.ReachabilityEvent.class));
      Map<String, String> members = new TreeMap<>();
      Set<String> unreachable = new TreeSet<>();
      return Behaviors.receiveMessage(event -> {
        String change;
        if (event instanceof ClusterEvent.MemberEvent me) {
          String address = me.member().address().toString();
          String status = me.member().status().toString();
          if (event instanceof ClusterEvent.MemberRemoved) {
            members.remove(address);
            unreachable.remove(address);
            change = address + " removed";
          } else {
            members.put(address, status);
            change = address + " " + status;
          }
        } else if (event instanceof ClusterEvent.UnreachableMember um) {
          unreachable.add(um.member().address().toString());
          change = um.member().address() + " unreachable";
        } else if (event instanceof ClusterEvent.ReachableMember rm) {
          unreachable.remove(rm.member().address().toString());
          change = rm.member().address() + " reachable again";
        } else {
          return Behaviors.same();
        }
        long up = members.values().stream().filter(s -> s.equals("Up")).count();
        log.info("Cluster: {}; {} member(s) up: {}", change, up, members.entrySet().stream()
            .map(e -> e.getKey() + " " + e.getValue() + (unreachable.contains(e.getKey()) ? " (unreachable)" : ""))
            .collect(Collectors.joining(", ")));
        return Behaviors.same();
      });
    });
  }

  public int httpPort() {
    return binding.main().localAddress().getPort();
  }

  /** The HTTP port's address, with {@code https} when it speaks TLS. */
  public String url() {
    return binding.scheme() + "://" + binding.main().localAddress().getHostString() + ":" + httpPort();
  }

  /** The file holding the cluster's node credential, which NodeManagers are given a copy of. */
  public java.nio.file.Path nodeCredentialFile() {
    return nodeCredentialFile;
  }

  public RmCore core() {
    return core;
  }

  public ActorSystem<Void> system() {
    return system;
  }

  /**
   * Stops the member as SIGTERM would (unbind, hand over, leave), but without exiting the JVM, and
   * waits until its actor system has terminated.
   */
  @Override
  public void close() {
    CoordinatedShutdown cs = CoordinatedShutdown.get(system);
    cs.runAll(Closed.INSTANCE);
    try {
      Duration limit = Duration.ofMillis(cs.totalTimeout().toMillis()).plusSeconds(5);
      system.getWhenTerminated().toCompletableFuture().get(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      log.warn("RM member did not stop cleanly: {}", e.toString());
    }
  }
}
