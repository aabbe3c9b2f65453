package dev.bobbin.launcher.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.pg.EmbeddedPostgres;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.launcher.Http;
import dev.bobbin.launcher.Signals;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Members the cluster downs end their processes within seconds, none of their shutdown phases
 * waiting out a timeout: one frozen (SIGSTOP) until the other removed it, once it runs again; one
 * cut off from the other, which first refuses writes and then downs itself.
 */
class DownedMemberIT {
  private static final Duration START = Duration.ofSeconds(60);
  private static final Duration JOIN = Duration.ofSeconds(45);
  /**
   * About a second to hear it was downed, then its shutdown, which takes 2 to 3 s on an idle machine.
   * The bound leaves room for a loaded one; a phase waiting out its timeout is caught by the log.
   */
  private static final Duration EXIT = Duration.ofSeconds(15);
  /** From the start of its shutdown to the end of its process, with the same room. */
  private static final Duration SHUTDOWN = Duration.ofSeconds(12);
  /** What Pekko logs when a phase of coordinated shutdown gives up waiting. */
  private static final String PHASE_TIMED_OUT = "Coordinated shutdown phase";
  /** What Pekko logs when a shutdown task fails before it starts. */
  private static final String TASK_FAILED = "threw an exception before its future could be constructed";
  private static EmbeddedPostgres pg;
  private final List<RmProcess> members = new ArrayList<>();

  @BeforeAll
  static void startPostgres() {
    pg = EmbeddedPostgres.start();
  }

  @AfterAll
  static void stopPostgres() {
    if (pg != null) pg.close();
  }

  private final List<List<String>> dropRules = new ArrayList<>();

  @AfterEach
  void stopMembers(TestInfo test) throws Exception {
    for (List<String> rule : dropRules) iptables("-D", rule);
    if (members.size() == 2) signal("CONT", members.get(0));
    members.forEach(RmProcess::kill);
    RmProcess.keepLogs(members, test.getTestMethod().map(m -> m.getName()).orElse("test"));
  }

  @Test
  void aDownedMemberExitsWithinSecondsOfLearningIt(@TempDir Path dir) throws Exception {
    members.addAll(RmProcess.pair(dir, "", pg.createDatabase()));
    RmProcess rm1 = members.get(0);
    RmProcess rm2 = members.get(1);
    RmProcess.startInOrder(rm1, rm2, START, JOIN);

    long offset1 = rm1.logLength();
    long offset2 = rm2.logLength();
    signal("STOP", rm1);
    rm2.awaitLog(offset2, "Cluster: " + rm1.clusterAddress() + " removed", Duration.ofSeconds(30));
    long resumed = System.nanoTime();
    signal("CONT", rm1);
    int status = rm1.awaitExit(EXIT);
    long exitMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - resumed);
    String log = rm1.logSince(offset1);
    System.out.println("DownedMemberIT: rm-1 exited with " + status + " " + exitMs + " ms after it ran again");
    assertThat(log).as("rm-1 stopped because it was downed").contains("RM member stopping: the cluster downed this member");
    assertThat(log).as("no shutdown phase timed out").doesNotContain(PHASE_TIMED_OUT);
    assertThat(log).as("no shutdown task failed").doesNotContain(TASK_FAILED);
  }

  /**
   * rm-1 and rm-2 lose each other (every packet to or from their cluster ports is dropped; their HTTP
   * ports and the journal stay reachable): rm-1, the higher address, is the losing side of the
   * split. It refuses writes as soon as it sees rm-2 unreachable, then downs itself and exits.
   * Needs root and iptables (skipped otherwise).
   */
  @Test
  void aMemberCutOffFromTheOtherRefusesWritesThenDownsItselfAndExits(@TempDir Path dir) throws Exception {
    Assumptions.assumeTrue(iptablesWorks(), "needs root and iptables to cut the cluster's connections");
    members.addAll(RmProcess.pair(dir, "", pg.createDatabase()));
    RmProcess rm1 = members.get(0);
    RmProcess rm2 = members.get(1);
    RmProcess.startInOrder(rm1, rm2, START, JOIN);
    assertThat(Http.post(rm1.api() + "/apps/new-application", "", RmProcess.REQUEST).status()).isEqualTo(200);

    long offset1 = rm1.logLength();
    long cut = System.nanoTime();
    for (int port : List.of(rm1.clusterPort, rm2.clusterPort)) {
      for (String direction : List.of("--dport", "--sport")) {
        List<String> rule = List.of("INPUT", "-i", "lo", "-p", "tcp", direction, Integer.toString(port), "-j", "DROP");
        iptables("-I", rule);
        dropRules.add(rule);
      }
    }
    Http.Reply[] refused = new Http.Reply[1];
    Http.await(Duration.ofSeconds(10), "rm-1 to refuse writes", () ->
        (refused[0] = Http.post(rm1.api() + "/apps/new-application", "", RmProcess.REQUEST)).status() == 503);
    long refusedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cut);
    JsonNode e = refused[0].json().path("RemoteException");
    assertThat(e.path("javaClassName").asText()).isEqualTo("org.apache.hadoop.ipc.StandbyException");
    assertThat(e.path("message").asText()).contains("this member cannot reach a majority of the cluster");

    rm1.awaitLog(offset1, "RM member stopping: the cluster downed this member", Duration.ofSeconds(30));
    long stopping = System.nanoTime();
    int status = rm1.awaitExit(SHUTDOWN);
    long exitMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopping);
    System.out.println("DownedMemberIT: cut off, rm-1 refused writes after " + refusedMs + " ms; it exited with "
        + status + " " + exitMs + " ms after it began to stop");
    // Closing remoting's connection to the peer the network drops may wait out the last phase's
    // timeout; no phase before it may.
    String log = rm1.logSince(offset1).replace(PHASE_TIMED_OUT + " [actor-system-terminate]", "");
    assertThat(log).as("no shutdown phase before actor-system-terminate timed out").doesNotContain(PHASE_TIMED_OUT)
        .as("no shutdown task failed").doesNotContain(TASK_FAILED);
    Http.await(Duration.ofSeconds(20), "rm-2 to take writes", () ->
        Http.post(rm2.api() + "/apps/new-application", "", RmProcess.REQUEST).status() == 200);
  }

  private static boolean iptablesWorks() {
    try {
      return new ProcessBuilder("iptables", "-L", "INPUT", "-n").redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor() == 0;
    } catch (Exception e) {
      return false;
    }
  }

  private static void iptables(String action, List<String> rule) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("iptables", action));
    cmd.addAll(rule);
    assertThat(new ProcessBuilder(cmd).inheritIO().start().waitFor()).as(String.join(" ", cmd)).isZero();
  }

  private static void signal(String signal, RmProcess member) throws Exception {
    if (member.process().isAlive()) Signals.send(signal, List.of(member.process().toHandle()));
  }
}
