package dev.bobbin.bench;

import dev.bobbin.protocol.client.Credentials;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * An RM member as its own JVM, started the way {@code bobbin rm} starts one
 * ({@code dev.bobbin.launcher.Main rm}), so its CPU can be read from /proc apart from the
 * simulators'. Its log goes to a file the scenario can search. {@link #close} stops it (SIGTERM,
 * then SIGKILL) with anything it started.
 */
final class RmProcess implements AutoCloseable {
  final Process process;
  final Path log;
  final int httpPort;
  final long startedNanos;
  final Path jfr;
  /** What the bench's REST calls to this RM carry: a user its authenticator accepts. */
  final Credentials user;

  private RmProcess(Process process, Path log, int httpPort, long startedNanos, Path jfr, Credentials user) {
    this.user = user;
    this.process = process;
    this.log = log;
    this.httpPort = httpPort;
    this.startedNanos = startedNanos;
    this.jfr = jfr;
  }

  /**
   * @param heap the RM's -Xmx
   * @param jfr a recording to write on exit, or null
   */
  static RmProcess start(Path work, String name, RmConfig cfg, Path dataDir, String heap, Path jfr) throws IOException {
    Files.createDirectories(work);
    Path conf = work.resolve(name + ".conf");
    int httpPort = Ports.free();
    Path credential = work.resolve(name + ".node-credential");
    Files.writeString(credential, BenchHttp.NODE_CREDENTIAL, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(credential, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    Path hmacKey = work.resolve(name + ".hmac-key");
    Files.writeString(hmacKey, BenchHttp.HMAC_KEY, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(hmacKey, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    Files.writeString(conf, cfg.hocon(dataDir, httpPort, Ports.free(), credential, hmacKey), StandardCharsets.UTF_8);
    Path logback = logback(work);
    List<String> cmd = new ArrayList<>(List.of("-Xmx" + heap));
    cmd.addAll(extraOptions());
    cmd.addAll(recording(jfr));
    cmd.add("-Dlogback.configurationFile=" + logback);
    LauncherClasspath launcher = LauncherClasspath.of(BenchMain.home());
    cmd.addAll(launcher.jvmOptions());
    cmd.addAll(List.of("-cp", launcher.classpath(), "dev.bobbin.launcher.Main", "rm", "--config", conf.toString()));
    return launch(work, name, cmd, httpPort, jfr, cfg.auth.credentials(hmacKey));
  }

  /**
   * A {@link TransportFloor} in its own JVM, with the same heap and {@link #extraOptions} as an RM,
   * on this JVM's classpath: a stand-in for the RM that only answers the NM protocol.
   */
  static RmProcess transportFloor(Path work, String heap) throws IOException {
    Files.createDirectories(work);
    int httpPort = Ports.free();
    List<String> cmd = new ArrayList<>(List.of("-Xmx" + heap));
    cmd.addAll(extraOptions());
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), TransportFloor.class.getName(),
        "--port", Integer.toString(httpPort)));
    return launch(work, "transport-floor", cmd, httpPort, null, Credentials.NONE);
  }

  /**
   * A {@link JournalFloor} in its own JVM, with the same heap, logging and {@link #extraOptions} as
   * an RM, on this JVM's classpath. It runs its phases and exits; its figures are in its log.
   *
   * @param jfr a recording of the whole run (warm-up included) to write on exit, or null
   */
  static RmProcess journalFloor(Path work, String heap, Path dataDir, long warmSeconds, long measureSeconds,
      int inFlight, Path jfr) throws IOException {
    Files.createDirectories(work);
    List<String> cmd = new ArrayList<>(List.of("-Xmx" + heap));
    cmd.addAll(extraOptions());
    cmd.addAll(recording(jfr));
    cmd.add("-Dlogback.configurationFile=" + logback(work));
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), JournalFloor.class.getName(),
        "--data-dir", dataDir.toString(), "--warm-up", Long.toString(warmSeconds),
        "--measure", Long.toString(measureSeconds), "--in-flight", Integer.toString(inFlight)));
    return launch(work, "journal-floor", cmd, -1, jfr, Credentials.NONE);
  }

  private static List<String> recording(Path jfr) {
    return jfr == null ? List.of()
        : List.of("-XX:StartFlightRecording=settings=profile,dumponexit=true,filename=" + jfr);
  }

  /** The RM's logging: INFO, and WARN for Pekko and the journal's libraries. */
  private static Path logback(Path work) throws IOException {
    Path logback = work.resolve("rm-logback.xml");
    Files.writeString(logback, """
        <configuration>
          <statusListener class="ch.qos.logback.core.status.NopStatusListener"/>
          <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
            <encoder><pattern>%d{HH:mm:ss.SSS} %-5level %logger{20} - %msg%n</pattern></encoder>
          </appender>
          <logger name="org.apache.pekko" level="WARN"/>
          <logger name="slick" level="WARN"/>
          <logger name="com.zaxxer" level="WARN"/>
          <root level="INFO"><appender-ref ref="OUT"/></root>
        </configuration>
        """, StandardCharsets.UTF_8);
    return logback;
  }

  private static RmProcess launch(Path work, String name, List<String> jvmArgs, int httpPort, Path jfr,
      Credentials user) throws IOException {
    Path log = work.resolve(name + ".log");
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // The JIT share is summed over the compiler threads alive in /proc, so one that exits takes its
    // CPU time out of the sum: with C1 alone it made the share negative. Kept alive, it only grows.
    cmd.add("-XX:-UseDynamicNumberOfCompilerThreads");
    cmd.addAll(jvmArgs);
    long started = System.nanoTime();
    Process p = new ProcessBuilder(cmd).directory(work.toFile()).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
        .start();
    RmProcess rm = new RmProcess(p, log, httpPort, started, jfr, user);
    Runtime.getRuntime().addShutdownHook(new Thread(rm::kill, "bench-rm-cleanup"));
    return rm;
  }

  /**
   * Extra JVM options for the RM process, from {@code BOBBIN_BENCH_RM_JAVA_OPTS}: for experiments
   * (what a flag would change), never set by default; a report says when they were used.
   */
  static List<String> extraOptions() {
    String env = System.getenv("BOBBIN_BENCH_RM_JAVA_OPTS");
    return env == null || env.isBlank() ? List.of() : List.of(env.trim().split("\\s+"));
  }

  /** A sentence for reports: how the RM JVM started (as bin/bobbin would), and any {@link #extraOptions}. */
  static String experimentNote() {
    return LauncherClasspath.of(BenchMain.home()).note() + extraOptionsNote();
  }

  /** A sentence for reports naming any {@link #extraOptions}, or nothing. */
  static String extraOptionsNote() {
    List<String> x = extraOptions();
    return x.isEmpty() ? "" : " **Experiment: the RM JVM ran with `" + String.join(" ", x) + "`.**";
  }

  /** Waits until {@code GET /ws/v1/cluster/info} answers; the nanoTime it did, or -1 (died, timed out). */
  long awaitHttp(long timeoutSeconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    var rm = BenchHttp.rm(httpPort, user, Duration.ofSeconds(5));
    while (System.nanoTime() < deadline && process.isAlive()) {
      if (BenchHttp.answers(rm)) return System.nanoTime();
      Thread.sleep(20);
    }
    return -1;
  }

  /** The first log line matching, or null when none has been written yet. */
  String logLine(Predicate<String> match) {
    try (BufferedReader r = Files.newBufferedReader(log, StandardCharsets.UTF_8)) {
      for (String line; (line = r.readLine()) != null; ) if (match.test(line)) return line;
    } catch (IOException e) {
      return null;
    }
    return null;
  }

  /**
   * CPU time the RM has used so far, from /proc.
   *
   * @throws IllegalStateException if the RM has exited: a phase it did not live through measured nothing
   */
  long cpuNanos() {
    long nanos = Machine.processCpuNanos(process.pid());
    if (!process.isAlive()) {
      throw new IllegalStateException("the RM process exited (status " + process.exitValue() + "); see " + log);
    }
    return nanos;
  }

  ThreadTimes threadTimes() {
    return Machine.threadTimes(process.pid());
  }

  long residentBytes() {
    return Machine.residentBytes(process.pid());
  }

  /** Asks the JVM to stop (its shutdown hooks dump JFR), then kills what is left. */
  @Override
  public void close() {
    if (!process.isAlive()) return;
    List<ProcessHandle> family = new ArrayList<>(process.descendants().toList());
    process.destroy();
    try {
      if (!process.waitFor(40, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
    family.forEach(ProcessHandle::destroyForcibly);
  }

  private void kill() {
    if (process.isAlive()) process.destroyForcibly();
  }
}
