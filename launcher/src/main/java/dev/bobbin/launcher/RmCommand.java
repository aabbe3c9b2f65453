package dev.bobbin.launcher;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.Settings;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code bobbin rm}: runs an RM member until it is told to stop. SIGTERM (or SIGINT) runs Pekko's
 * coordinated shutdown from its JVM shutdown hook, a graceful leave; a member the cluster downs
 * stops the same way and the process exits with status 255.
 */
final class RmCommand {
  static final String USAGE = """
      bobbin rm [--config FILE] [--data-dir DIR] [--hostname HOST] [--http-port PORT]
                [--cluster-port PORT] [--seed-nodes pekko://bobbin@h:p,...] [--journal embedded|postgres]
                [--postgres-url JDBC_URL --postgres-user USER --postgres-password PW]
                [--scheduler fifo|fair] [--allocation-file fair-scheduler.xml]""";

  /**
   * Under the user's configuration, over bobbin-rm.conf: a member in a process of its own exits
   * the JVM when coordinated shutdown ends it (the cluster downed it, no seed node let it join)
   * instead of idling with a dead actor system. Embedded members (tests, quick start) keep it off.
   */
  static final Config PROCESS_DEFAULTS = ConfigFactory.parseMap(Map.of("pekko.coordinated-shutdown.exit-jvm", "on"));

  private RmCommand() {}

  static int run(List<String> args) throws Exception {
    Options o = Options.parse(args, Set.of("config", "data-dir", "hostname", "http-port", "cluster-port",
        "seed-nodes", "journal", "postgres-url", "postgres-user", "postgres-password", "scheduler",
        "allocation-file"));
    Path configFile = o.named.containsKey("config") ? Path.of(o.get("config", null)) : null;
    Config base = Settings.userConfig(configFile);
    Map<String, Object> over = new HashMap<>();
    put(over, o, "data-dir", "bobbin.data-dir");
    put(over, o, "hostname", "bobbin.rm.hostname");
    if (o.named.containsKey("hostname")) over.put("pekko.remote.artery.canonical.hostname", o.get("hostname", null));
    if (o.named.containsKey("http-port")) over.put("bobbin.rm.http-port", o.intValue("http-port", 8088));
    if (o.named.containsKey("cluster-port")) {
      over.put("pekko.remote.artery.canonical.port", o.intValue("cluster-port", 2551));
    }
    if (o.named.containsKey("seed-nodes")) {
      over.put("pekko.cluster.seed-nodes", List.of(o.get("seed-nodes", "").split(",")));
    }
    put(over, o, "journal", "bobbin.persistence.journal");
    put(over, o, "postgres-url", "bobbin.persistence.postgres.url");
    put(over, o, "postgres-user", "bobbin.persistence.postgres.user");
    put(over, o, "postgres-password", "bobbin.persistence.postgres.password");
    put(over, o, "scheduler", "bobbin.scheduler.policy");
    if (o.named.containsKey("allocation-file")) {
      // As yarn.scheduler.fair.allocation.file: naming one selects the Fair policy.
      over.put("bobbin.scheduler.fair.allocation-file", Path.of(o.get("allocation-file", null)).toAbsolutePath().toString());
      over.putIfAbsent("bobbin.scheduler.policy", "fair");
    }
    Config overrides = ConfigFactory.parseMap(over);
    RmMember member = RmMember.start(overrides.withFallback(base).withFallback(PROCESS_DEFAULTS),
        () -> overrides.withFallback(Settings.userConfig(configFile)).withFallback(PROCESS_DEFAULTS));
    System.out.println("RM member listening on " + member.url());
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

  private static void put(Map<String, Object> over, Options o, String option, String key) {
    if (o.named.containsKey(option)) over.put(key, o.get(option, null));
  }
}
