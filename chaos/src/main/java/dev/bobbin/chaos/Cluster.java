package dev.bobbin.chaos;

import dev.bobbin.am.shell.ClassDataSharing;
import dev.bobbin.config.NodeCredential;
import dev.bobbin.config.SettingsException;
import dev.bobbin.launcher.Ports;
import dev.bobbin.pg.EmbeddedPostgres;
import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.client.CallException;
import dev.bobbin.protocol.client.RmRestClient;
import dev.bobbin.protocol.rest.AppsQuery;
import dev.bobbin.protocol.rest.NodeManagerInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The system under test as processes: PostgreSQL, the RM members and the NodeManagers, on
 * 127.0.0.1, or with each member in its own network namespace when the run injects network faults
 * (PostgreSQL, through a relay, and the NodeManagers then listen on the bridge's host address).
 * Everything it starts, and the namespaces, is ended by {@link #close()}, also from a shutdown hook.
 */
final class Cluster implements AutoCloseable {
  static final Duration MEMBER_START = Duration.ofSeconds(90);
  /** The status an RM member exits with when the cluster downed it. */
  static final int DOWNED_STATUS = 255;
  private static final Duration NM_START = Duration.ofSeconds(60);
  private static final Duration REQUEST = Duration.ofSeconds(3);
  private static final Duration STOP_GRACE = Duration.ofSeconds(10);
  private static final String MAIN = "dev.bobbin.launcher.Main";
  private static final String LOOPBACK = "127.0.0.1";

  final Path workDir;
  final List<Member> members = new ArrayList<>();
  private final ChaosOptions options;
  private final String classpath;
  private final ClusterClients clients;
  private final List<Integer> nmPorts;
  private final Optional<MemberNetwork> network;
  private final String hostAddress;
  private final Children children = new Children();
  private final Thread hook = new Thread(this::close, "chaos-cleanup");
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile List<NmAgent> nodes = List.of();
  private EmbeddedPostgres pg;
  private EmbeddedPostgres.Database db;
  private JournalControl journal;
  private JournalRelay relay;
  private String membersJdbcUrl;
  private Path rmConfig;

  Cluster(ChaosOptions options, Path workDir, String classpath, ClusterClients clients, Random random,
      Optional<MemberNetwork> network) {
    this.options = options;
    this.network = network;
    this.hostAddress = network.map(n -> n.hostAddress).orElse(LOOPBACK);
    this.workDir = workDir;
    this.classpath = classpath;
    this.clients = clients;
    List<Integer> ports = Ports.pick(2 * options.members() + options.nodes(), random);
    for (int i = 0; i < options.members(); i++) {
      String host = network.isPresent() ? network.get().address(i + 1) : LOOPBACK;
      members.add(new Member(i + 1, host, ports.get(2 * i), ports.get(2 * i + 1), workDir.resolve("rm-" + (i + 1)),
          workDir.resolve("logs").resolve("rm-" + (i + 1) + ".log")));
    }
    this.nmPorts = ports.subList(2 * options.members(), ports.size());
  }

  Optional<MemberNetwork> network() {
    return network;
  }

  /** The journal's database, for outages; set once {@link #start} started it. */
  JournalControl journal() {
    return journal;
  }

  /** The journal database as the harness reaches it (on loopback). */
  EmbeddedPostgres.Database database() {
    return db;
  }

  List<NmAgent> nodes() {
    return nodes;
  }

  List<Member> serving() {
    return members.stream().filter(Member::serving).toList();
  }

  List<String> memberUrls() {
    return members.stream().map(Member::url).toList();
  }

  void start(Consumer<String> say) throws StartupException {
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      pg = EmbeddedPostgres.start();
      db = pg.createDatabase();
    } catch (RuntimeException e) {
      throw new StartupException("PostgreSQL did not start: " + e.getMessage(), e);
    }
    journal = new JournalControl(pg);
    membersJdbcUrl = db.jdbcUrl();
    if (network.isPresent()) {
      try {
        relay = new JournalRelay(hostAddress, pg.port());
      } catch (IOException e) {
        throw new StartupException("could not relay PostgreSQL to " + hostAddress + ":" + pg.port() + ": " + e, e);
      }
      membersJdbcUrl = db.jdbcUrl().replace("//" + LOOPBACK + ":", "//" + hostAddress + ":");
      say.accept("members in network namespaces: " + members.stream().map(m -> m.name() + " " + m.host)
          .collect(Collectors.joining(", ")) + "; host side " + hostAddress);
    }
    say.accept("PostgreSQL on 127.0.0.1:" + pg.port() + " (journal database " + db.jdbcUrl() + ")"
        + (relay == null ? "" : ", relayed to the members at " + membersJdbcUrl));
    rmConfig = writeRmConfig();
    // The first member creates the journal schema and forms the cluster; the others then join it.
    launch(members.get(0));
    awaitUpOrFail(members.get(0), say);
    members.subList(1, members.size()).forEach(this::launch);
    for (Member m : members.subList(1, members.size())) awaitUpOrFail(m, say);
    say.accept(members.size() + " RM member(s) up: " + String.join(", ", memberUrls()));
    startNodes();
    awaitNodesRegistered();
    say.accept(nodes.size() + " NodeManager(s) registered: "
        + nodes.stream().map(n -> n.nodeId() + " " + n.capacity()).collect(Collectors.joining(", ")));
  }

  /** Starts {@code m}'s process on its ports (again, after a fault). */
  void launch(Member m) {
    m.state(Member.State.STARTING);
    List<String> cmd = new ArrayList<>(javaCommand("-Xmx512m"));
    cmd.addAll(List.of("rm", "--config", rmConfig.toString(), "--data-dir", m.dataDir.toString(),
        "--hostname", m.host, "--http-port", Integer.toString(m.httpPort),
        "--cluster-port", Integer.toString(m.clusterPort), "--seed-nodes", seedNodes(),
        "--journal", "postgres", "--postgres-url", membersJdbcUrl, "--postgres-user", db.user(),
        "--postgres-password", db.password()));
    if (network.isPresent()) cmd = network.get().wrap(m.index, cmd);
    m.process(children.start(m.name(), cmd, m.log, directory(m.dataDir), false));
  }

  /**
   * Waits until {@code m} answers its HTTP API (cluster info and the application list, which needs
   * the cluster) and marks it up; false when it died or {@code limit} passed.
   */
  boolean awaitUp(Member m, Duration limit) {
    long deadline = System.nanoTime() + limit.toNanos();
    while (System.nanoTime() < deadline) {
      Process p = m.process();
      if (p == null || !p.isAlive()) return false;
      if (serves(m)) {
        m.state(Member.State.UP);
        return true;
      }
      if (!Sleep.millis(250)) return false;
    }
    return false;
  }

  /** Restarts {@code m} until it serves, a few times if it dies at once (a port not yet free). */
  boolean restart(Member m, Duration limit) {
    long deadline = System.nanoTime() + limit.toNanos();
    for (int attempt = 0; attempt < 3 && System.nanoTime() < deadline; attempt++) {
      Process old = m.process();
      if (old != null && old.isAlive()) Children.stop(old, Duration.ofSeconds(1));
      launch(m);
      if (awaitUp(m, Duration.ofNanos(deadline - System.nanoTime()))) return true;
      if (m.process().isAlive() || !Sleep.millis(2000)) return false;
    }
    return false;
  }

  /** Members left behind by a fault: those that came up late are marked up, dead ones restarted. */
  void heal(Duration limit) {
    for (Member m : members) {
      if (m.state() == Member.State.UP && m.process().isAlive()) continue;
      if (m.process() != null && m.process().isAlive()) {
        awaitUp(m, Duration.ofSeconds(5));
      } else {
        restart(m, limit);
      }
    }
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) return;
    if (journal != null) journal.thaw();
    children.stopAll(STOP_GRACE);
    if (relay != null) relay.close();
    network.ifPresent(MemberNetwork::close);
    if (pg != null) {
      try {
        Files.createDirectories(workDir.resolve("logs"));
        Files.copy(pg.logFile(), workDir.resolve("logs").resolve("postgres.log"), StandardCopyOption.REPLACE_EXISTING);
      } catch (IOException | RuntimeException e) {
        // The server log is a convenience; the run's result does not depend on it.
      }
      pg.close();
    }
    if (Thread.currentThread() != hook) {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException | IllegalArgumentException e) {
        // Already shutting down, or never registered.
      }
    }
  }

  /**
   * A member the cluster downs while it joins stops itself with status 255 (see {@code RmCommand}),
   * as the README tells operators, and is started again as systemd's {@code Restart=always} would.
   * Pekko can quarantine a member whose first handshake completes as an earlier attempt times out.
   */
  private void awaitUpOrFail(Member m, Consumer<String> say) throws StartupException {
    boolean up = awaitUp(m, MEMBER_START);
    if (!up && !m.process().isAlive() && m.process().exitValue() == DOWNED_STATUS) {
      say.accept(m.name() + " was downed while it joined (status " + DOWNED_STATUS + "); starting it again");
      up = restart(m, MEMBER_START);
    }
    if (!up) {
      throw new StartupException(m.name() + " did not serve " + m.url() + " within " + Durations.format(MEMBER_START)
          + " (" + exitNote(m.process()) + "); its log " + m.log + " ends:\n" + Logs.tail(m.log, 30));
    }
  }

  private void startNodes() throws StartupException {
    String rms = String.join(",", memberUrls());
    List<NmAgent> started = new ArrayList<>();
    for (int i = 0; i < options.nodes(); i++) {
      int port = nmPorts.get(i);
      Path dir = workDir.resolve("nm-" + (i + 1));
      Path log = workDir.resolve("logs").resolve("nm-" + (i + 1) + ".log");
      List<String> cmd = new ArrayList<>(javaCommand("-Xmx256m"));
      cmd.addAll(List.of("nm", "--rm", rms, "--memory", Integer.toString(options.nodeMemoryMb()),
          "--vcores", Integer.toString(options.nodeVcores()), "--hostname", hostAddress,
          "--http-port", Integer.toString(port), "--work-dir", dir.resolve("local").toString(),
          "--node-credential", nodeCredential().toString()));
      Process p = children.start("nm-" + (i + 1), cmd, log, directory(dir), true);
      started.add(new NmAgent(i + 1, hostAddress, port, dir, log, p, null, null));
    }
    List<NmAgent> identified = new ArrayList<>();
    for (NmAgent n : started) identified.add(identify(n));
    nodes = List.copyOf(identified);
  }

  /** The NodeManager's own id and capacity, from {@code GET /ws/v1/node/info}. */
  private NmAgent identify(NmAgent n) throws StartupException {
    long deadline = System.nanoTime() + NM_START.toNanos();
    while (System.nanoTime() < deadline && n.process().isAlive()) {
      try {
        NodeManagerInfo info = clients.nodes(REQUEST).info(n.url());
        return n.identified(info.id(),
            new Resource(info.totalPmemAllocatedContainersMB(), (int) info.totalVCoresAllocatedContainers()));
      } catch (CallException e) {
        // not listening yet
      }
      if (!Sleep.millis(250)) break;
    }
    throw new StartupException(n.name() + " did not serve " + n.url() + " within " + Durations.format(NM_START)
        + " (" + exitNote(n.process()) + "); its log " + n.log() + " ends:\n" + Logs.tail(n.log(), 30));
  }

  private void awaitNodesRegistered() throws StartupException {
    long deadline = System.nanoTime() + NM_START.toNanos();
    int running = 0;
    while (System.nanoTime() < deadline) {
      for (Member m : serving()) {
        try {
          running = clients.rm(m, REQUEST).nodes(Set.of(NodeState.RUNNING)).size();
        } catch (CallException e) {
          continue;
        }
        if (running >= nodes.size()) return;
      }
      if (!Sleep.millis(500)) break;
    }
    throw new StartupException("only " + running + " of " + nodes.size() + " NodeManagers registered within "
        + Durations.format(NM_START) + "; see the logs in " + workDir.resolve("logs"));
  }

  private boolean serves(Member m) {
    RmRestClient rm = clients.rm(m, REQUEST);
    try {
      rm.clusterInfo();
      rm.applications(AppsQuery.all().withLimit(1));
      return true;
    } catch (CallException e) {
      return false;
    }
  }

  /** As {@code bin/bobbin} starts a member or a NodeManager, with its archive if this JVM has one. */
  private List<String> javaCommand(String heap) {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd = new ArrayList<>(List.of(java, heap, "-XX:+UseSerialGC"));
    cmd.addAll(ClassDataSharing.options());
    cmd.addAll(List.of("-cp", classpath, MAIN));
    return cmd;
  }

  /**
   * Every member, as the README advises: a restarted first seed then waits for whichever member is
   * up rather than form a second cluster (the RM's FirstSeedGuard looks only at the other seeds).
   */
  private String seedNodes() {
    return members.stream().map(Member::clusterAddress).collect(Collectors.joining(","));
  }

  /**
   * Every member lets in NodeManagers with one node credential, and tells AMs about every member.
   * Applications may ask for up to {@link Submitter#SERVICE_MAX_ATTEMPTS} attempts, which the
   * long-running services do to outlive the AM kills, as an operator of such services raises
   * YARN's {@code yarn.resourcemanager.am.max-attempts}. The rest is the RM's own configuration
   * (the token keys the members share through the journal); the harness changes no failover setting.
   */
  private Path writeRmConfig() throws StartupException {
    String addresses = memberUrls().stream().map(u -> "\"" + u + "\"").collect(Collectors.joining(", "));
    String conf = "bobbin.rm.node-credential-file = \"" + nodeCredential() + "\"\n"
        + "bobbin.rm.addresses = [" + addresses + "]\n"
        + "bobbin.rm.am-max-attempts = " + Submitter.SERVICE_MAX_ATTEMPTS + "\n";
    Path file = workDir.resolve("rm.conf");
    try {
      Files.writeString(file, conf, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new StartupException("could not write " + file + ": " + e.getMessage(), e);
    }
    return file;
  }

  /** The cluster's node credential, made on first use. */
  private Path nodeCredential() throws StartupException {
    Path file = workDir.resolve(NodeCredential.FILE_NAME).toAbsolutePath();
    try {
      NodeCredential.readOrCreate(file, "bobbin.rm.node-credential-file");
    } catch (SettingsException e) {
      throw new StartupException(e.getMessage(), e);
    }
    return file;
  }

  private static Path directory(Path dir) {
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static String exitNote(Process p) {
    return p == null ? "not started" : p.isAlive() ? "still running" : "exited with " + p.exitValue();
  }
}
