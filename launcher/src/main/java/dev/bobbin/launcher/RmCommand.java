package dev.bobbin.launcher;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.Settings;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code bobbin rm}: runs an RM member until it is told to stop. */
final class RmCommand {
  static final String USAGE = """
      bobbin rm [--config FILE] [--data-dir DIR] [--hostname HOST] [--http-port PORT]
                [--cluster-port PORT] [--seed-nodes pekko://bobbin@h:p,...] [--journal embedded|postgres]
                [--postgres-url JDBC_URL --postgres-user USER --postgres-password PW]
                [--scheduler fifo|fair] [--allocation-file fair-scheduler.xml]""";

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
    RmMember member = RmMember.start(overrides.withFallback(base),
        () -> overrides.withFallback(Settings.userConfig(configFile)));
    Runtime.getRuntime().addShutdownHook(new Thread(member::close, "bobbin-rm-shutdown"));
    System.out.println("RM member listening on " + member.url());
    member.system().getWhenTerminated().toCompletableFuture().join();
    return 0;
  }

  private static void put(Map<String, Object> over, Options o, String option, String key) {
    if (o.named.containsKey(option)) over.put(key, o.get(option, null));
  }
}
