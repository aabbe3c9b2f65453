package dev.bobbin.launcher.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.launcher.Ports;
import dev.bobbin.pg.EmbeddedPostgres;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * When the first seed node, a real RM process, forms a cluster by itself (FirstSeedGuard):
 * <ul>
 *   <li>not while the only other seed node accepts connections without answering (a member that
 *       is up but frozen or starved: what formed a second cluster on one journal in a chaos run),
 *       nor while it cannot be reached at all (a network split, or its host down), and once
 *       nothing listens there. That other seed is a plain socket that accepts and never answers,
 *       or one whose full backlog leaves connection attempts unanswered; seed-node-timeout is 3 s
 *       here, so Pekko's own rule would have formed the cluster 3 s after the member began to
 *       join;</li>
 *   <li>at a cold start of three seeds with one host unreachable, once the seed that is up said it
 *       is not a member, as two of three seeds are then out of any cluster: the other seed, a real
 *       RM, then joins it.</li>
 * </ul>
 */
class FirstSeedIT {
  private static final Duration START = Duration.ofSeconds(90);
  private static final String WAITING = "not forming a new cluster while seed node(s) 127.0.0.1:";
  private static final String FORMING = "could be running a cluster";
  private final EmbeddedPostgres pg = EmbeddedPostgres.start();
  private final List<RmProcess> members = new CopyOnWriteArrayList<>();
  private ServerSocket silentSeed;
  private final List<Socket> accepted = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop(TestInfo test) throws IOException {
    Path keep = Path.of("target", "cluster-it", test.getTestMethod().map(m -> m.getName()).orElse("test")
        + (test.getDisplayName().startsWith("[") ? test.getDisplayName().replaceAll("[^A-Za-z0-9]+", "-") : ""));
    Files.createDirectories(keep);
    for (RmProcess m : members) {
      m.kill();
      Files.copy(m.log, keep.resolve(m.log.getFileName()), StandardCopyOption.REPLACE_EXISTING);
    }
    closeSilentSeed();
    pg.close();
  }

  enum OtherSeed { SILENT, UNREACHABLE }

  @ParameterizedTest
  @EnumSource(OtherSeed.class)
  void theFirstSeedWaitsWhileTheOtherSeedCouldBeRunningAClusterAndFormsOneOnceNothingListensThere(
      OtherSeed other, @TempDir Path dir) throws Exception {
    List<Integer> ports = Ports.pick(3, new Random());
    if (other == OtherSeed.SILENT) {
      listenAndNeverAnswer(ports.get(2));
    } else {
      listenUnreachable(ports.get(2));
    }
    RmProcess rm = member("rm-1", ports.get(0), ports.get(1), dir, pg.createDatabase(),
        List.of(seed(ports.get(1)), seed(ports.get(2))));

    rm.start();
    long first = rm.awaitLog(0, WAITING + ports.get(2), START);
    long second = rm.awaitLog(first + 1, WAITING + ports.get(2), START);
    assertThat(rm.process().isAlive()).isTrue();
    assertThat(rm.logSince(0)).as("two windows of 3 s have passed with no cluster formed")
        .doesNotContain(" Up; ").doesNotContain(FORMING);

    closeSilentSeed();
    rm.awaitLog(second, FORMING, START);
    rm.awaitLog(second, "Cluster: " + rm.clusterAddress() + " Up; 1 member(s) up", START);
    rm.awaitServing(START);
  }

  @Test
  void atAColdStartWithOneSeedUnreachableTheFirstSeedFormsTheClusterOnceTheOtherSaysItIsNotAMember(
      @TempDir Path dir) throws Exception {
    List<Integer> ports = Ports.pick(5, new Random());
    int down = ports.get(4);
    listenUnreachable(down);
    List<String> seeds = List.of(seed(ports.get(2)), seed(ports.get(3)), seed(down));
    EmbeddedPostgres.Database db = pg.createDatabase();
    RmProcess rm1 = member("rm-1", ports.get(0), ports.get(2), dir, db, seeds);
    RmProcess rm2 = member("rm-2", ports.get(1), ports.get(3), dir, db, seeds);

    rm2.start();
    rm2.awaitLog(0, "RM member up", START);
    rm1.start();
    rm1.awaitLog(0, FORMING, START);
    rm1.awaitLog(0, "2 member(s) up", START);
    rm2.awaitLog(0, "2 member(s) up", START);
    rm2.awaitServing(START);
  }

  private RmProcess member(String name, int httpPort, int clusterPort, Path dir, EmbeddedPostgres.Database db,
      List<String> seeds) throws IOException {
    Path config = dir.resolve("rm.conf");
    if (!Files.exists(config)) Files.writeString(config, "pekko.cluster.seed-node-timeout = 3s\n");
    RmProcess m = new RmProcess(name, httpPort, clusterPort, dir, config, db, seeds);
    members.add(m);
    return m;
  }

  private static String seed(int port) {
    return "pekko://bobbin@127.0.0.1:" + port;
  }

  private void listenAndNeverAnswer(int port) throws IOException {
    silentSeed = new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::acceptAndNeverAnswer, "silent-seed");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** Listens without accepting until the backlog is full: the kernel then leaves new connection attempts unanswered. */
  private void listenUnreachable(int port) throws IOException {
    silentSeed = new ServerSocket(port, 1, InetAddress.getLoopbackAddress());
    while (true) {
      Socket filling = new Socket();
      accepted.add(filling);
      try {
        filling.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
      } catch (SocketTimeoutException full) {
        return;
      }
    }
  }

  private void acceptAndNeverAnswer() {
    try {
      while (true) accepted.add(silentSeed.accept());
    } catch (IOException closed) {
      // the test closed the socket
    }
  }

  private void closeSilentSeed() throws IOException {
    if (silentSeed != null) silentSeed.close();
    for (Socket s : accepted) s.close();
  }
}
