package dev.bobbin.launcher;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.NmSettings;
import dev.bobbin.config.Settings;
import dev.bobbin.node.server.NodeManager;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code bobbin nm}: runs a NodeManager agent until it is told to stop. */
@Command(name = "nm", header = "A NodeManager agent; memory and vcores are detected when not given.", description = {
    "Runs a NodeManager agent until it is told to stop (SIGTERM or Ctrl-C kills its containers, unless",
    "bobbin.nm.recovery.supervised leaves them to the next agent).",
    "Options override the configuration file's settings."})
final class NmCommand implements Callable<Integer> {
  @Option(names = "--rm", paramLabel = "URL[,URL...]", split = ",", hideParamSyntax = true,
      description = "the RM members' HTTP URLs, tried in order on failure (default: bobbin.nm.rm-addresses)")
  List<String> rm;

  @Option(names = "--memory", paramLabel = "MB", description = "memory to offer (default: 80%% of the machine's)")
  Integer memory;

  @Option(names = "--vcores", paramLabel = "N", description = "virtual cores to offer (default: the machine's cores)")
  Integer vcores;

  @Option(names = "--config", paramLabel = "FILE", description = "HOCON settings, over Bobbin's defaults")
  Path config;

  @Option(names = "--hostname", paramLabel = "HOST", description = "the name the RM and AMs reach this agent by")
  String hostname;

  @Option(names = "--http-port", paramLabel = "PORT", description = "the agent's HTTP port (default 8042)")
  Integer httpPort;

  @Option(names = "--data-dir", paramLabel = "DIR",
      description = "where the agent keeps its state (default: $XDG_STATE_HOME/bobbin, else ~/.local/state/bobbin)")
  String dataDir;

  @Option(names = "--work-dir", paramLabel = "DIR",
      description = "where containers' work and log directories go (default: nm-PORT under the data dir)")
  String workDir;

  @Option(names = "--rack", paramLabel = "RACK", description = "the node's rack (default /default-rack)")
  String rack;

  @Option(names = "--auth", paramLabel = "simple|token", completionCandidates = RmCommand.Authenticators.class,
      description = "how users of the REST API and logs are authenticated: user.name, or a signed bearer token"
          + " (bobbin.security.auth)")
  String auth;

  @Option(names = "--acl-enable", arity = "0..1", paramLabel = "true|false", fallbackValue = "true",
      description = "keep containers' details and logs to their users and the administrators, as yarn.acl.enable"
          + " (default: on unless --auth simple)")
  Boolean aclEnable;

  @Option(names = "--admin-acl", paramLabel = "ACL",
      description = "the cluster's administrators, as yarn.admin.acl: \"users groups\", \"*\" or \" \"")
  String adminAcl;

  @Option(names = "--node-credential", paramLabel = "FILE", description = {
      "a copy of the cluster's node credential, without which the RM refuses the node: an RM member makes it as",
      "node-credential in its data directory and names it as it starts (default: bobbin.nm.node-credential-file)"})
  Path nodeCredential;

  @Mixin TlsOptions tls = new TlsOptions();

  private final PrintStream out;

  NmCommand(PrintStream out) {
    this.out = out;
  }

  @Override
  public Integer call() {
    Map<String, Object> over = new HashMap<>();
    RmCommand.put(over, "bobbin.nm.rm-addresses", rm);
    RmCommand.put(over, "bobbin.nm.memory-mb", memory);
    RmCommand.put(over, "bobbin.nm.vcores", vcores);
    RmCommand.put(over, "bobbin.nm.http-port", httpPort);
    RmCommand.put(over, "bobbin.nm.hostname", hostname);
    RmCommand.put(over, "bobbin.nm.data-dir", dataDir);
    RmCommand.put(over, "bobbin.nm.work-dir", workDir);
    RmCommand.put(over, "bobbin.nm.rack", rack);
    RmCommand.put(over, "bobbin.nm.node-credential-file", nodeCredential == null ? null : nodeCredential.toString());
    tls.putInto(over);
    RmCommand.put(over, "bobbin.security.auth", auth);
    RmCommand.put(over, "bobbin.security.acl-enable", aclEnable);
    RmCommand.put(over, "bobbin.security.admin-acl", adminAcl);
    Config full = ConfigFactory.parseMap(over).withFallback(Settings.load(config));
    NmSettings settings = NmSettings.from(full);
    startingLines(settings, rm != null, config).forEach(out::println);
    NodeManager nm = NodeManager.start(settings, full);
    Runtime.getRuntime().addShutdownHook(new Thread(nm::close, "bobbin-nm-shutdown"));
    out.println("NodeManager " + nm.nodeId() + " serving on " + nm.scheme() + "://" + nm.httpAddress()
        + ", reporting to " + settings.rmAddresses());
    nm.whenTerminated().toCompletableFuture().join();
    return 0;
  }

  /** What the agent says before it starts: the RM it reports to when none was named, and its work directory. */
  static List<String> startingLines(NmSettings settings, boolean rmGiven, Path config) {
    List<String> lines = new ArrayList<>();
    if (!rmGiven) {
      lines.add("NodeManager: no --rm given; reporting to " + String.join(",", settings.rmAddresses())
          + " (bobbin.nm.rm-addresses" + (config == null ? ", its default" : ", from " + config) + ")");
    }
    lines.add("NodeManager: work directory " + settings.workDir().toAbsolutePath());
    return lines;
  }
}
