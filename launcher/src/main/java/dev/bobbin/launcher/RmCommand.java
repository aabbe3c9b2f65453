package dev.bobbin.launcher;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.SchedulerPolicy;
import dev.bobbin.config.Settings;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bobbin rm}: runs an RM member until it is told to stop. SIGTERM (or SIGINT) runs Pekko's
 * coordinated shutdown from its JVM shutdown hook, a graceful leave; a member the cluster downs
 * stops the same way and the process exits with status 255.
 */
@Command(name = "rm", header = "An RM member; its HTTP API on port 8088 by default.", description = {
    "Runs an RM member until it is told to stop. SIGTERM (or Ctrl-C) is a graceful leave; a member the"
        + " cluster downed exits with status 255.",
    "Options override the configuration file's settings."})
final class RmCommand implements Callable<Integer> {
  @Option(names = "--config", paramLabel = "FILE", description = "HOCON settings, over Bobbin's defaults")
  Path config;

  @Option(names = "--data-dir", paramLabel = "DIR",
      description = "the embedded journal and the node credential made on first start (bobbin.data-dir)")
  String dataDir;

  @Option(names = "--hostname", paramLabel = "HOST",
      description = "the name members, NodeManagers and AMs reach this member by; the HTTP API listens on it")
  String hostname;

  @Option(names = "--http-port", paramLabel = "PORT", description = "the HTTP API's port (default 8088)")
  Integer httpPort;

  @Option(names = "--cluster-port", paramLabel = "PORT", description = "the port members talk to each other on")
  Integer clusterPort;

  @Option(names = "--seed-nodes", paramLabel = "pekko://bobbin@HOST:PORT[,...]", split = ",", hideParamSyntax = true,
      description = "every member's cluster address, the same list in the same order on every member")
  List<String> seedNodes;

  @Option(names = "--journal", paramLabel = "embedded|postgres", completionCandidates = Journals.class,
      description = "the journal: an embedded H2 file under the data dir, or a shared PostgreSQL")
  String journal;

  @Option(names = "--postgres-url", paramLabel = "JDBC_URL", description = "jdbc:postgresql://HOST:PORT/DB")
  String postgresUrl;

  @Option(names = "--postgres-user", paramLabel = "USER")
  String postgresUser;

  @Option(names = "--postgres-password", paramLabel = "PW",
      description = "visible in ps: prefer $BOBBIN_POSTGRES_PASSWORD")
  String postgresPassword;

  @Option(names = "--scheduler", paramLabel = "fifo|fair|capacity", completionCandidates = Policies.class,
      description = "the scheduling policy (Hadoop's scheduler class names work too)")
  String scheduler;

  @Option(names = "--allocation-file", paramLabel = "FILE",
      description = "Hadoop's fair-scheduler.xml; selects the fair policy unless --scheduler says otherwise")
  Path allocationFile;

  @Option(names = "--capacity-file", paramLabel = "FILE",
      description = "Hadoop's capacity-scheduler.xml; selects the capacity policy unless --scheduler says otherwise")
  Path capacityFile;

  @Spec CommandSpec spec;

  @Mixin TlsOptions tls = new TlsOptions();
  @Option(names = "--auth", paramLabel = "simple|token", completionCandidates = Authenticators.class,
      description = "how callers of the HTTP API are authenticated: user.name, or a signed bearer token"
          + " (bobbin.security.auth)")
  String auth;

  @Option(names = "--acl-enable", arity = "0..1", paramLabel = "true|false", fallbackValue = "true",
      description = "check admin, queue and application ACLs, as yarn.acl.enable (default: on unless --auth simple)")
  Boolean aclEnable;

  @Option(names = "--admin-acl", paramLabel = "ACL",
      description = "who administers the cluster, as yarn.admin.acl: \"users groups\", \"*\" or \" \" (no one but the"
          + " member's own user)")
  String adminAcl;

  private final PrintStream out;

  /**
   * Under the user's configuration, over bobbin-rm.conf: a member in a process of its own exits
   * the JVM when coordinated shutdown ends it (the cluster downed it, no seed node let it join)
   * instead of idling with a dead actor system. Embedded members (tests, quick start) keep it off.
   */
  static final Config PROCESS_DEFAULTS = ConfigFactory.parseMap(Map.of("pekko.coordinated-shutdown.exit-jvm", "on"));

  RmCommand(PrintStream out) {
    this.out = out;
  }

  @Override
  public Integer call() throws Exception {
    Config overrides = ConfigFactory.parseMap(overrides());
    RmMember member = RmMember.start(overrides.withFallback(Settings.userConfig(config)).withFallback(PROCESS_DEFAULTS),
        () -> overrides.withFallback(Settings.userConfig(config)).withFallback(PROCESS_DEFAULTS));
    out.println("RM member listening on " + member.url());
    out.println("NodeManagers join with a copy of " + member.nodeCredentialFile() + ": bobbin nm --rm " + member.url()
        + " --node-credential FILE");
    member.system().getWhenTerminated().toCompletableFuture().join();
    return exitStatus(member.system());
  }

  /**
   * The status Pekko's coordinated shutdown exits with for the reason the member stopped (255 when
   * the cluster downed it). Main exits with it too, so whichever of the two calls System.exit first,
   * the status is the same.
   */
  static int exitStatus(org.apache.pekko.actor.typed.ActorSystem<?> system) {
    Config cs = system.settings().config().getConfig("pekko.coordinated-shutdown");
    var reason = org.apache.pekko.actor.CoordinatedShutdown.get(system).getShutdownReason();
    String override = reason.map(r -> "reason-overrides.\"" + r.getClass().getName() + "\".exit-code").orElse("");
    int code = !override.isEmpty() && cs.hasPath(override) ? cs.getInt(override) : cs.getInt("exit-code");
    if (code != 0) {
      System.err.println("bobbin rm: stopped: " + reason.map(RmMember::describe).orElse("unknown reason"));
    }
    return code & 0xff;
  }

  /** The settings the options give; null options give none. */
  Map<String, Object> overrides() {
    Map<String, Object> over = new HashMap<>();
    put(over, "bobbin.data-dir", dataDir);
    put(over, "bobbin.rm.hostname", hostname);
    put(over, "pekko.remote.artery.canonical.hostname", hostname);
    put(over, "bobbin.rm.http-port", httpPort);
    put(over, "pekko.remote.artery.canonical.port", clusterPort);
    put(over, "pekko.cluster.seed-nodes", seedNodes);
    put(over, "bobbin.persistence.journal", journal);
    put(over, "bobbin.persistence.postgres.url", postgresUrl);
    put(over, "bobbin.persistence.postgres.user", postgresUser);
    put(over, "bobbin.persistence.postgres.password", postgresPassword);
    put(over, "bobbin.scheduler.policy", scheduler);
    tls.putInto(over);
    put(over, "bobbin.security.auth", auth);
    put(over, "bobbin.security.acl-enable", aclEnable);
    put(over, "bobbin.security.admin-acl", adminAcl);
    schedulerFile(over, "--allocation-file", allocationFile, "bobbin.scheduler.fair.allocation-file",
        SchedulerPolicy.FAIR);
    schedulerFile(over, "--capacity-file", capacityFile, "bobbin.scheduler.capacity.capacity-file",
        SchedulerPolicy.CAPACITY);
    return over;
  }

  /**
   * A policy's own file (as yarn.scheduler.fair.allocation.file): naming one selects its policy. A
   * file for a policy that does not run would be read by no one, so it is refused.
   */
  private void schedulerFile(Map<String, Object> over, String option, Path file, String key, SchedulerPolicy policy) {
    if (file == null) return;
    Object chosen = over.get("bobbin.scheduler.policy");
    if (chosen != null && SchedulerPolicy.parse("--scheduler", chosen.toString()) != policy) {
      throw new ParameterException(spec.commandLine(), option + " is read by the " + name(policy)
          + " policy only, and " + (scheduler != null ? "--scheduler says " + scheduler
              : "another file selects the " + chosen + " policy") + "; give --scheduler " + name(policy)
          + " or leave " + option + " out");
    }
    over.put(key, file.toAbsolutePath().toString());
    over.put("bobbin.scheduler.policy", name(policy));
  }

  private static String name(SchedulerPolicy policy) {
    return policy.name().toLowerCase(java.util.Locale.ROOT);
  }

  static void put(Map<String, Object> over, String key, Object value) {
    if (value != null) over.put(key, value);
  }

  static final class Journals extends java.util.ArrayList<String> {
    Journals() {
      super(List.of("embedded", "postgres"));
    }
  }

  static final class Authenticators extends java.util.ArrayList<String> {
    Authenticators() {
      super(List.of("simple", "token"));
    }
  }

  static final class Policies extends java.util.ArrayList<String> {
    Policies() {
      super(List.of("fifo", "fair", "capacity"));
    }
  }
}
