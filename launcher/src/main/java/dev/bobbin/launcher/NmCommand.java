package dev.bobbin.launcher;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.NmSettings;
import dev.bobbin.config.Settings;
import dev.bobbin.node.NodeManager;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code bobbin nm}: runs a NodeManager agent until it is told to stop. */
final class NmCommand {
  static final String USAGE = """
      bobbin nm --rm URL[,URL...] [--memory MB] [--vcores N] [--config FILE] [--hostname HOST]
                [--http-port PORT] [--work-dir DIR] [--rack RACK]""";

  private NmCommand() {}

  static int run(List<String> args) {
    Options o = Options.parse(args, Set.of("config", "rm", "memory", "vcores", "hostname", "http-port",
        "work-dir", "rack"));
    Config base = Settings.load(o.named.containsKey("config") ? Path.of(o.get("config", null)) : null);
    Map<String, Object> over = new HashMap<>();
    if (o.named.containsKey("rm")) over.put("bobbin.nm.rm-addresses", List.of(o.get("rm", "").split(",")));
    if (o.named.containsKey("memory")) over.put("bobbin.nm.memory-mb", o.intValue("memory", -1));
    if (o.named.containsKey("vcores")) over.put("bobbin.nm.vcores", o.intValue("vcores", -1));
    if (o.named.containsKey("http-port")) over.put("bobbin.nm.http-port", o.intValue("http-port", 8042));
    if (o.named.containsKey("hostname")) over.put("bobbin.nm.hostname", o.get("hostname", null));
    if (o.named.containsKey("work-dir")) over.put("bobbin.nm.work-dir", o.get("work-dir", null));
    if (o.named.containsKey("rack")) over.put("bobbin.nm.rack", o.get("rack", null));
    NmSettings settings = NmSettings.from(ConfigFactory.parseMap(over).withFallback(base));
    NodeManager nm = NodeManager.start(settings);
    Runtime.getRuntime().addShutdownHook(new Thread(nm::close, "bobbin-nm-shutdown"));
    System.out.println("NodeManager " + nm.nodeId() + " serving on http://" + nm.httpAddress()
        + ", reporting to " + settings.rmAddresses());
    nm.whenTerminated().toCompletableFuture().join();
    return 0;
  }
}
