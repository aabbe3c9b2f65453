package dev.bobbin.node.container;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.Resource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A container actor taking back a real container process it did not launch, as after a restart:
 * it sees the end by looking, with the exit code the launch script wrote, and kills the tree.
 */
class ReattachedContainerTest {
  static final Duration CHECK = Duration.ofMillis(50);
  static final String CID = LaunchScriptTest.CID;
  static ActorTestKit testKit;
  @TempDir Path dir;

  @BeforeAll
  static void start() {
    testKit = ActorTestKit.create();
  }

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  private LaunchSpec spec(String... commands) {
    ContainerLayout.Dirs dirs = new ContainerLayout(dir, "host-a:8042").dirsFor("alice", LaunchScriptTest.APP, CID);
    return LaunchScript.plan(CID, LaunchScriptTest.APP, "alice", Resource.of(256, 1),
        new ContainerLaunchContext(List.of(commands), Map.of()), dirs,
        new LaunchScript.NodeFacts("host-a", 8042, System.getProperty("java.home"), List.of()), System.getenv());
  }

  /** Launches the container, then hands its process to a new actor as a restarted node would. */
  private ActorRef<ContainerActor.Command> launchAndTakeBack(LaunchSpec spec, TestProbe<ContainerActor.Report> reports)
      throws Exception {
    ContainerProcess launched = new LocalProcessLauncher().launch(spec);
    ProcessIdentity root = ProcessIdentity.of(launched.pid());
    return testKit.spawn(ContainerActor.reattach(spec, new ReattachedProcess(root, spec.workDir(), CID),
        Duration.ofMillis(300), CHECK, reports.getRef()));
  }

  @Test
  void itsEndIsSeenWithTheExitCodeTheScriptWrote() throws Exception {
    LaunchSpec spec = spec("until [ -e go ]; do sleep 0.05; done", "echo failing >&2", "exit 3");
    TestProbe<ContainerActor.Report> reports = testKit.createTestProbe();
    launchAndTakeBack(spec, reports);
    ContainerActor.Launched launched = reports.expectMessageClass(ContainerActor.Launched.class);
    assertThat(launched.containerId()).isEqualTo(CID);

    Files.writeString(spec.workDir().resolve("go"), "");
    ContainerActor.Finished f = reports.expectMessageClass(ContainerActor.Finished.class, Duration.ofSeconds(10));
    assertThat(f.exitStatus()).isEqualTo(3);
    assertThat(f.killed()).isFalse();
    assertThat(f.diagnostics()).contains("non-zero exit code 3").contains("failing");
  }

  @Test
  void aKillEndsTheWholeTreeAndReportsTheReason() throws Exception {
    LaunchSpec spec = spec("sleep 600 & echo $! > child.pid; wait");
    TestProbe<ContainerActor.Report> reports = testKit.createTestProbe();
    ActorRef<ContainerActor.Command> actor = launchAndTakeBack(spec, reports);
    reports.expectMessageClass(ContainerActor.Launched.class);
    Path childPid = spec.workDir().resolve("child.pid");
    testKit.createTestProbe().awaitAssert(() -> assertThat(childPid).isNotEmptyFile());
    ProcessHandle child = ProcessHandle.of(Long.parseLong(Files.readString(childPid).trim())).orElseThrow();

    actor.tell(new ContainerActor.Kill(KillReason.BY_APPMASTER));
    ContainerActor.Finished f = reports.expectMessageClass(ContainerActor.Finished.class, Duration.ofSeconds(10));
    assertThat(f.exitStatus()).isEqualTo(ExitStatus.KILLED_BY_APPMASTER);
    assertThat(f.killed()).isTrue();
    assertThat(f.diagnostics()).contains("Exit code is 143");
    testKit.createTestProbe().awaitAssert(() -> assertThat(LocalContainerProcess.running(child)).isFalse());
  }

  @Test
  void aProcessGoneWithoutAnExitCodeIsLost() throws Exception {
    LaunchSpec spec = spec("true");
    Process ended = new ProcessBuilder("true").start();
    ProcessIdentity gone = ProcessIdentity.of(ended.pid());
    ended.waitFor();
    TestProbe<ContainerActor.Report> reports = testKit.createTestProbe();
    testKit.spawn(ContainerActor.reattach(spec, new ReattachedProcess(gone, spec.workDir(), CID), Duration.ofMillis(300),
        CHECK, reports.getRef()));
    reports.expectMessageClass(ContainerActor.Launched.class);
    ContainerActor.Finished f = reports.expectMessageClass(ContainerActor.Finished.class);
    assertThat(f.exitStatus()).isEqualTo(ProcessFiles.LOST);
  }
}
