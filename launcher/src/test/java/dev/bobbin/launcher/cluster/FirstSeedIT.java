package dev.bobbin.launcher.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.pg.EmbeddedPostgres;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * When the first seed node, a real RM process, forms a cluster by itself (FirstSeedGuard):
 * <ul>
 *   <li>not while another seed node accepts connections without answering (a member that is up
 *       but frozen or starved: what formed a second cluster on one journal in a chaos run), and
 *       once nothing listens there. That other seed is a plain socket that accepts and never
 *       answers; seed-node-timeout is 3 s here, so Pekko's own rule would have formed the cluster
 *       3 s after the member began to join;</li>
 *   <li>at a cold start with one seed's host down, once the seeds that are up said they are not
 *       members: the other seed, a real RM, then joins it.</li>
 * </ul>
 */
class FirstSeedIT {
  private static final Duration START = Duration.ofSeconds(90);
  private static final String WAITING = "not forming a new cluster while seed node(s) 127.0.0.1:";
  private static final String FORMING = "said it is not a member; forming a new cluster";
  private final EmbeddedPostgres pg = EmbeddedPostgres.start();
  private final List<RmProcess> members = new CopyOnWriteArrayList<>();
  private ServerSocket silentSeed;
  private final List<Socket> accepted = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop(TestInfo test) throws IOException {
    Path keep = Path.of("target", "cluster-it", test.getTestMethod().map(m -> m.getName()).orElse("test"));
    Files.createDirectories(keep);
    for (RmProcess m : members) {
      m.kill();
      Files.copy(m.log, keep.resolve(m.log.getFileName()), StandardCopyOption.REPLACE_EXISTING);
    }
    closeSilentSeed();
    pg.close();
  }

  @Test
  void theFirstSeedWaitsWhileAnotherSeedAcceptsConnectionsAndFormsTheClusterOnceNoneDoes(@TempDir Path dir)
      throws Exception {
    List<Integer> ports = Ports.free(3);
    silentSeed = new ServerSocket(ports.get(2), 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::acceptAndNeverAnswer, "silent-seed");
    acceptor.setDaemon(true);
    acceptor.start();
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
  void atAColdStartWithOneSeedHostDownTheFirstSeedFormsTheClusterOnceTheOthersSayTheyAreNotMembers(
      @TempDir Path dir) throws Exception {
    List<Integer> ports = Ports.free(5);
    int down = ports.get(4);
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
