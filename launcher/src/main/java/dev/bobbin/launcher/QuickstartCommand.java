package dev.bobbin.launcher;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.am.shell.ShellAmSpec;
import dev.bobbin.config.HttpTls;
import dev.bobbin.config.NmSettings;
import dev.bobbin.http.server.HttpServers;
import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.YarnApplicationState;
import dev.bobbin.protocol.client.BobbinHttp;
import dev.bobbin.protocol.client.Credentials;
import dev.bobbin.protocol.client.NodeRestClient;
import dev.bobbin.protocol.client.RemoteErrorException;
import dev.bobbin.protocol.client.RmRestClient;
import dev.bobbin.protocol.rest.AppAttemptInfo;
import dev.bobbin.protocol.rest.AppInfo;
import dev.bobbin.protocol.rest.NodeContainerInfo;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bobbin quickstart}: one RM member and two NodeManagers in this JVM, an embedded journal
 * in a fresh directory, and a distributed-shell application submitted over the REST API. The
 * containers, the AM among them, are real processes.
 */
@Command(name = "quickstart",
    header = "One RM member and two NodeManagers on this machine, running a distributed-shell application.",
    description = "Submits a distributed-shell application that prints from 3 containers over the REST API, shows"
        + " its progress and output, and exits 0 when it SUCCEEDED. Prints the directory it runs in and logs to.")
public final class QuickstartCommand implements Callable<Integer> {
  static final String SHELL = "echo \"hello from $CONTAINER_ID\"";
  static final int CONTAINERS = 3;
  private static final Duration APP_TIMEOUT = Duration.ofMinutes(3);
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(15);

  /** What a run produced: the final state and status, and each worker container's stdout. */
  public record Outcome(String appId, String state, String finalStatus, String diagnostics,
      Map<String, String> containerOutput) {
    public boolean succeeded() {
      return "FINISHED".equals(state) && "SUCCEEDED".equals(finalStatus);
    }
  }

  @Option(names = "--dir", paramLabel = "DIR",
      description = "where the journal, the NodeManagers' work and the log go (default: a new temporary directory)")
  Path dir;

  @Option(names = "--keep", description = {"after the application, keep the RM member and the NodeManagers running"
      + " until Ctrl-C, for more applications (bobbin submit --rm URL ...)"})
  boolean keep;

  @Mixin TlsOptions tls = new TlsOptions();

  /** What becomes of the cluster once the application has ended, before it stops. */
  interface Afterwards {
    /** @param stop stops the NodeManagers (their containers) and the RM member */
    void whileRunning(String rmUrl, Runnable stop) throws Exception;
  }

  private final PrintStream out;

  QuickstartCommand(PrintStream out) {
    this.out = out;
  }

  @Override
  public Integer call() throws Exception {
    Path dir = this.dir != null ? this.dir : Files.createTempDirectory("bobbin-quickstart-");
    Files.createDirectories(dir);
    logTo(dir.resolve("bobbin.log"));
    out.println("Bobbin quickstart in " + dir + " (logs: " + dir.resolve("bobbin.log") + ")");
    Map<String, Object> tlsConf = new LinkedHashMap<>();
    tls.putInto(tlsConf);
    Outcome outcome = runIn(dir, out, SHELL, tlsConf, keep ? untilStopped(out) : (rmUrl, stop) -> { });
    return outcome.succeeded() ? 0 : 1;
  }

  /** Keeps the cluster until the JVM is told to stop (Ctrl-C, SIGTERM), which then stops it. */
  private static Afterwards untilStopped(PrintStream out) {
    return (rmUrl, stop) -> {
      out.println("The cluster keeps running (--keep), the RM member at " + rmUrl + "; for example:");
      out.println("  bin/bobbin submit --rm " + rmUrl + " --shell 'hostname' --containers 2 --memory 256 --wait");
      out.println("Ctrl-C stops it.");
      Runtime.getRuntime().addShutdownHook(new Thread(stop, "bobbin-quickstart-stop"));
      new CountDownLatch(1).await();
    };
  }

  /**
   * Runs the whole quickstart in {@code dir}, and then {@code afterwards} before the cluster stops;
   * shared by the command and its end-to-end test.
   */
  public static Outcome runIn(Path dir, PrintStream out, String shell, Afterwards afterwards) throws Exception {
    return runIn(dir, out, shell, Map.of(), afterwards);
  }

  /** @param tlsConf {@code bobbin.http.tls} settings for the RM member, the NodeManagers and the client */
  public static Outcome runIn(Path dir, PrintStream out, String shell, Map<String, Object> tlsConf, Afterwards afterwards)
      throws Exception {
    Config tlsConfig = ConfigFactory.parseMap(tlsConf);
    HttpTls clientTls = HttpTls.from(tlsConfig.withFallback(ConfigFactory.defaultReference()));
    int rmPort = freePort();
    Map<String, Object> rmConf = new LinkedHashMap<>(tlsConf);
    rmConf.put("bobbin.data-dir", dir.resolve("rm-data").toString());
    rmConf.put("bobbin.rm.http-port", rmPort);
    rmConf.put("pekko.remote.artery.canonical.port", freePort());
    try (RmMember rm = RmMember.start(ConfigFactory.parseMap(rmConf))) {
      out.println("RM member up at " + rm.url());
      List<NodeManager> nms = new ArrayList<>();
      try {
        for (int i = 1; i <= 2; i++) {
          Config nmConfig = tlsConfig.withFallback(ConfigFactory.load());
          nms.add(NodeManager.start(nmSettings(rm.url(), dir.resolve("nm-" + i), rm.nodeCredentialFile()), nmConfig));
        }
        // The RM and NMs authenticate their callers (simple: user.name); the quick start calls as its own user.
        BobbinHttp http = BobbinHttp.builder().connectTimeout(CONNECT_TIMEOUT).requestTimeout(REQUEST_TIMEOUT)
            .tls(HttpServers.clientTls(clientTls)).build()
            .withCredentials(Credentials.simpleUser(System.getProperty("user.name")));
        RmRestClient rest = new RmRestClient(http, List.of(rm.url()));
        awaitNodes(rest, 2, out);
        String appId = submit(rest, shell, out);
        AppInfo app = awaitFinal(rest, appId, out);
        List<AppAttemptInfo> attempts = rest.attempts(appId);
        reportFailedAttempts(attempts, out);
        Map<String, String> output = containerOutput(new NodeRestClient(http), appId, attempts, nms);
        output.forEach((id, text) -> out.println("  " + id + ": " + text.strip()));
        String state = app.state().name();
        String fin = String.valueOf(app.finalStatus());
        String diagnostics = app.diagnostics() == null ? "" : app.diagnostics();
        out.println("Application " + appId + " " + state + " with final status " + fin
            + (diagnostics.isEmpty() ? "" : ": " + diagnostics));
        afterwards.whileRunning(rm.url(), () -> {
          nms.forEach(NodeManager::close);
          rm.close();
        });
        return new Outcome(appId, state, fin, diagnostics, output);
      } finally {
        for (NodeManager nm : nms) nm.close();
      }
    }
  }

  /** A NodeManager of the quick start, given the node credential its RM member made. */
  private static NmSettings nmSettings(String rmUrl, Path workDir, Path nodeCredential) throws IOException {
    return NmSettings.from(ConfigFactory.parseMap(Map.of(
        "bobbin.nm.rm-addresses", List.of(rmUrl),
        "bobbin.nm.node-credential-file", nodeCredential.toString(),
        "bobbin.nm.http-port", freePort(),
        "bobbin.nm.memory-mb", 4096,
        "bobbin.nm.vcores", 4,
        "bobbin.nm.work-dir", workDir.toString())).withFallback(ConfigFactory.load()));
  }

  private static void awaitNodes(RmRestClient rest, int count, PrintStream out) throws InterruptedException {
    Instant deadline = Instant.now().plusSeconds(30);
    while (true) {
      if (rest.nodes(Set.of(NodeState.RUNNING)).size() >= count) {
        out.println(count + " NodeManagers registered");
        return;
      }
      if (Instant.now().isAfter(deadline)) throw new IllegalStateException("NodeManagers did not register in 30 s");
      Thread.sleep(200);
    }
  }

  private static String submit(RmRestClient rest, String shell, PrintStream out) {
    String appId = rest.newApplication().applicationId();
    List<String> commands = ShellAmSpec.commands(System.getProperty("java.class.path"), shell, CONTAINERS,
        new Resource(256, 1), 0);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("application-id", appId);
    body.put("application-name", "quickstart-distributed-shell");
    body.put("application-type", "DISTRIBUTED-SHELL");
    body.put("queue", "default");
    body.put("resource", new Resource(512, 1));
    body.put("am-container-spec", Map.of("commands", Map.of("command", commands)));
    rest.submit(body);
    out.println("Submitted " + appId + ": " + shell + " on " + CONTAINERS + " containers");
    return appId;
  }

  private static AppInfo awaitFinal(RmRestClient rest, String appId, PrintStream out) throws InterruptedException {
    Instant deadline = Instant.now().plus(APP_TIMEOUT);
    YarnApplicationState last = null;
    while (true) {
      AppInfo app = rest.application(appId);
      if (app.state() != last) {
        out.println("  " + appId + " is " + app.state());
        last = app.state();
      }
      if (app.state() != null && app.state().isFinal()) return app;
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException("Application " + appId + " did not finish within " + APP_TIMEOUT);
      }
      Thread.sleep(250);
    }
  }

  private static void reportFailedAttempts(List<AppAttemptInfo> attempts, PrintStream out) {
    for (AppAttemptInfo a : attempts) {
      if ("FAILED".equals(a.appAttemptState())) {
        out.println("  attempt " + a.appAttemptId() + " failed: " + a.diagnosticsInfo());
      }
    }
  }

  /** Stdout of each worker container, read back through the NodeManagers' REST API. */
  private static Map<String, String> containerOutput(NodeRestClient rest, String appId, List<AppAttemptInfo> attempts,
      List<NodeManager> nms) {
    Set<String> amContainers = attempts.stream().map(AppAttemptInfo::containerId).collect(Collectors.toSet());
    String appKey = appId.substring("application_".length());
    Map<String, String> out = new TreeMap<>();
    for (NodeManager nm : nms) {
      for (NodeContainerInfo c : rest.containers(nm.httpAddress())) {
        String id = c.id();
        if (!id.contains(appKey) || amContainers.contains(id)) continue;
        try {
          out.put(id, rest.containerLog(nm.httpAddress(), id, "stdout"));
        } catch (RemoteErrorException e) {
          out.put(id, "(no stdout: HTTP " + e.status() + ")");
        }
      }
    }
    return out;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static void logTo(Path file) {
    LoggerContext ctx = (LoggerContext) LoggerFactory.getILoggerFactory();
    ctx.reset();
    ctx.putProperty("bobbin.log.file", file.toString());
    JoranConfigurator jc = new JoranConfigurator();
    jc.setContext(ctx);
    try {
      jc.doConfigure(QuickstartCommand.class.getResource("/logback-quickstart.xml"));
    } catch (Exception e) {
      System.err.println("Could not set up logging to " + file + ": " + e);
    }
  }
}
