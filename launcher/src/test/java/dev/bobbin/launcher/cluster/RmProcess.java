package dev.bobbin.launcher.cluster;

import dev.bobbin.config.NodeCredential;
import dev.bobbin.launcher.Http;
import dev.bobbin.launcher.Ports;
import dev.bobbin.pg.EmbeddedPostgres;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * One RM member as a real process ({@code bobbin rm} with this JVM's classpath): fixed ports and
 * data directory, so it can be restarted as the same member; its output appended to one log.
 */
final class RmProcess {
  /** Each request of the cluster tests: one lost in a failover costs a retry, not the RM's ask timeout. */
  static final Duration REQUEST = Duration.ofSeconds(2);
  final String name;
  final int httpPort;
  final int clusterPort;
  final Path dataDir;
  final Path log;
  private final Path config;
  private final EmbeddedPostgres.Database db;
  private final List<String> seedNodes;
  private Process process;

  RmProcess(String name, int httpPort, int clusterPort, Path dir, Path config, EmbeddedPostgres.Database db,
      List<String> seedNodes) {
    this.name = name;
    this.httpPort = httpPort;
    this.clusterPort = clusterPort;
    this.dataDir = dir.resolve(name);
    this.log = dir.resolve(name + ".log");
    this.config = config;
    this.db = db;
    this.seedNodes = seedNodes;
  }

  /**
   * Two members on one journal with one {@code rm.conf} ({@code config}, the node credential in
   * {@code dir}, and both members' addresses), not started. rm-1 is to start first, which makes it
   * the oldest member, and gets the higher cluster port: with two members a kill -9 leaves one
   * against one, and keep-majority keeps the lowest address, so the survivor, rm-2, downs rm-1.
   */
  static List<RmProcess> pair(Path dir, String config, EmbeddedPostgres.Database db) throws IOException {
    List<Integer> ports = Ports.pick(4, new Random());
    int cluster1 = Math.max(ports.get(2), ports.get(3));
    int cluster2 = Math.min(ports.get(2), ports.get(3));
    List<String> seeds = List.of("pekko://bobbin@127.0.0.1:" + cluster1, "pekko://bobbin@127.0.0.1:" + cluster2);
    Path credential = dir.resolve(NodeCredential.FILE_NAME);
    NodeCredential.readOrCreate(credential, "test");
    Path file = dir.resolve("rm.conf");
    Files.writeString(file, config + "\nbobbin.rm.node-credential-file = \"" + credential + "\"\n"
        + "bobbin.rm.addresses = [\"http://127.0.0.1:" + ports.get(0) + "\", \"http://127.0.0.1:" + ports.get(1) + "\"]\n");
    return List.of(new RmProcess("rm-1", ports.get(0), cluster1, dir, file, db, seeds),
        new RmProcess("rm-2", ports.get(1), cluster2, dir, file, db, seeds));
  }

  /** Starts {@code first} (which forms the cluster and creates the journal's tables), then {@code second}. */
  static void startInOrder(RmProcess first, RmProcess second, Duration start, Duration join) throws Exception {
    first.start();
    first.awaitServing(start);
    second.start();
    second.awaitServing(start);
    first.awaitLog(0, "2 member(s) up", join);
    second.awaitLog(0, "2 member(s) up", join);
  }

  /** The members' logs, kept under target/cluster-it/{@code name}: they outlive the temporary directory. */
  static void keepLogs(List<RmProcess> members, String name) {
    Path keep = Path.of("target", "cluster-it", name);
    for (RmProcess m : members) {
      try {
        Files.createDirectories(keep);
        Files.copy(m.log, keep.resolve(m.log.getFileName()), StandardCopyOption.REPLACE_EXISTING);
      } catch (IOException e) {
        System.out.println("could not keep " + m.log + ": " + e);
      }
    }
  }

  String url() {
    return "http://127.0.0.1:" + httpPort;
  }

  String api() {
    return url() + "/ws/v1/cluster";
  }

  /** As Pekko writes it. */
  String clusterAddress() {
    return "pekko://bobbin@127.0.0.1:" + clusterPort;
  }

  Process process() {
    return process;
  }

  void start() throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd = new ArrayList<>(List.of(java, "-Xmx512m", "-XX:+UseSerialGC",
        "-cp", System.getProperty("java.class.path"), "dev.bobbin.launcher.Main", "rm",
        "--config", config.toString(), "--data-dir", dataDir.toString(), "--hostname", "127.0.0.1",
        "--http-port", Integer.toString(httpPort), "--cluster-port", Integer.toString(clusterPort),
        "--seed-nodes", String.join(",", seedNodes),
        "--journal", "postgres", "--postgres-url", db.jdbcUrl(), "--postgres-user", db.user(),
        "--postgres-password", db.password()));
    Files.writeString(log, "=== test: starting " + name + " at " + Instant.now() + "\n", StandardCharsets.UTF_8,
        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    process = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
  }

  /** Until it answers cluster info and the application list (which needs the cluster). */
  void awaitServing(Duration timeout) throws Exception {
    try {
      Http.await(timeout, name + " to serve " + url(), () -> {
        if (!process.isAlive()) throw new IllegalStateException(name + " exited with " + process.exitValue());
        return Http.get(api() + "/info", REQUEST).status() == 200
            && Http.get(api() + "/apps?limit=1", REQUEST).status() == 200;
      });
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "\n" + name + "'s log ends:\n" + tail(40), e);
    }
  }

  /** Until a line of its log after {@code offset} contains {@code text}; the log's length then. */
  long awaitLog(long offset, String text, Duration timeout) throws Exception {
    long[] at = {-1};
    try {
      Http.await(timeout, name + "'s log to say \"" + text + "\"", () -> {
        String s = logSince(offset);
        int i = s.indexOf(text);
        if (i < 0) return false;
        at[0] = offset + i;
        return true;
      });
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "\n" + name + "'s log ends:\n" + tail(40), e);
    }
    return at[0];
  }

  long logLength() throws IOException {
    return Files.exists(log) ? Files.size(log) : 0;
  }

  /** The log from byte {@code offset} on (logs here are ASCII). */
  String logSince(long offset) throws IOException {
    byte[] all = Files.readAllBytes(log);
    int from = (int) Math.min(offset, all.length);
    return new String(all, from, all.length - from, StandardCharsets.UTF_8);
  }

  String tail(int lines) {
    try {
      List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  /** Waits for the process to end; its exit status, or fails after the timeout. */
  int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError(name + " still runs " + timeout.toSeconds() + " s later; its log ends:\n" + tail(40));
    }
    return process.exitValue();
  }

  /** Ends the process and anything it started, at once. */
  void kill() {
    if (process == null) return;
    List<ProcessHandle> family = new ArrayList<>(process.descendants().toList());
    process.destroyForcibly();
    family.forEach(ProcessHandle::destroyForcibly);
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
