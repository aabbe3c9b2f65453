package dev.bobbin.node.container;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.Resource;
import java.io.IOException;
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

/** The container actor's lifecycle against fake processes: who ends it decides the exit status. */
class ContainerActorTest {
  static final Duration GRACE = Duration.ofMillis(200);
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

  @Test
  void naturalExitReportsTheProcessExitCode() {
    TestingContainerProcess process = TestingContainerProcess.polite();
    TestProbe<ContainerActor.Report> reports = testKit.createTestProbe();
    testKit.spawn(ContainerActor.create(spec(), s -> process, GRACE, reports.getRef()));

    reports.expectMessage(new ContainerActor.Launched("c1", 4242));
    process.exit(0);
    assertThat(reports.expectMessageClass(ContainerActor.Finished.class))
        .isEqualTo(new ContainerActor.Finished("c1", 0, "", false));
  }

  @Test
  void failureCarriesTheTailOfStderr() throws IOException {
    Files.writeString(dir.resolve("stderr"), "boom\n");
    TestingContainerProcess process = TestingContainerProcess.polite();
    TestProbe<ContainerActor.Report> reports = testKit.createTestProbe();
    testKit.spawn(ContainerActor.create(spec(), s -> process, GRACE, reports.getRef()));
    reports.expectMessageClass(ContainerActor.Launched.class);

    process.exit(2);
    ContainerActor.Finished f = reports.expectMessageClass(ContainerActor.Finished.class);
    assertThat(f.exitStatus()).isEqualTo(2);
    assertThat(f.killed()).isFalse();
    assertThat(f.diagnostics()).contains("non-zero exit code 2").contains("boom");
  }

  @Test
  void stderrIsNeverReadThroughALink() throws IOException {
    Path secret = Files.writeString(dir.resolve("node-only.txt"), "the node's secret\n");
    Files.createSymbolicLink(dir.resolve("stderr"), secret);
    TestingContainerProcess process = TestingContainerProcess.polite();
    TestProbe<ContainerActor.Report> reports = testKit.createTestProbe();
    testKit.spawn(ContainerActor.create(spec(), s -> process, GRACE, reports.getRef()));
    reports.expectMessageClass(ContainerActor.Launched.class);

    process.exit(1);
    ContainerActor.Finished f = reports.expectMessageClass(ContainerActor.Finished.class);
    assertThat(f.diagnostics()).contains("non-zero exit code 1").contains("not a regular file")
        .doesNotContain("secret");
  }

  @Test
  void aRefusedLaunchReportsTheRefusalAsTheDiagnostics() {
    TestProbe<ContainerActor.Report> reports = testKit.createTestProbe();
    testKit.spawn(ContainerActor.create(spec(), s -> {
      throw new ContainerLaunchRefused("Application app initialization failed (exitCode=255) with output: no");
    }, GRACE, reports.getRef()));
    assertThat(reports.expectMessageClass(ContainerActor.Finished.class)).isEqualTo(new ContainerActor.Finished(
        "c1", ExitStatus.INVALID, "Application app initialization failed (exitCode=255) with output: no", false));
  }

  @Test
  void killReportsTheReasonNotTheSignal() {
    TestingContainerProcess process = TestingContainerProcess.polite();
    TestProbe<ContainerActor.Report> reports = testKit.createTestProbe();
    ActorRef<ContainerActor.Command> actor =
        testKit.spawn(ContainerActor.create(spec(), s -> process, GRACE, reports.getRef()));
    reports.expectMessageClass(ContainerActor.Launched.class);

    actor.tell(new ContainerActor.Kill(KillReason.BY_APPMASTER));
    ContainerActor.Finished f = reports.expectMessageClass(ContainerActor.Finished.class);
    assertThat(f.exitStatus()).isEqualTo(ExitStatus.KILLED_BY_APPMASTER);
    assertThat(f.killed()).isTrue();
    assertThat(f.diagnostics()).contains("ApplicationMaster").contains("143");
    assertThat(process.forceKills).hasValue(0);
  }

  @Test
  void processIgnoringSigtermIsForceKilledAfterTheGrace() {
    TestingContainerProcess process = TestingContainerProcess.deaf();
    TestProbe<ContainerActor.Report> reports = testKit.createTestProbe();
    ActorRef<ContainerActor.Command> actor =
        testKit.spawn(ContainerActor.create(spec(), s -> process, GRACE, reports.getRef()));
    reports.expectMessageClass(ContainerActor.Launched.class);

    actor.tell(new ContainerActor.Kill(KillReason.BY_RESOURCEMANAGER));
    actor.tell(new ContainerActor.Kill(KillReason.AFTER_APP_COMPLETION));
    reports.expectNoMessage(GRACE.dividedBy(2));
    ContainerActor.Finished f = reports.expectMessageClass(ContainerActor.Finished.class);
    assertThat(f.exitStatus()).isEqualTo(ExitStatus.KILLED_BY_RESOURCEMANAGER);
    assertThat(process.terminations).hasValue(1);
    assertThat(process.forceKills).hasValue(1);
  }

  @Test
  void survivingChildrenAreForceKilledBeforeTheKillCompletes() {
    TestingContainerProcess process = TestingContainerProcess.withStubbornChild();
    TestProbe<ContainerActor.Report> reports = testKit.createTestProbe();
    ActorRef<ContainerActor.Command> actor =
        testKit.spawn(ContainerActor.create(spec(), s -> process, GRACE, reports.getRef()));
    reports.expectMessageClass(ContainerActor.Launched.class);

    actor.tell(new ContainerActor.Kill(KillReason.AFTER_APP_COMPLETION));
    ContainerActor.Finished f = reports.expectMessageClass(ContainerActor.Finished.class);
    assertThat(f.exitStatus()).isEqualTo(ExitStatus.KILLED_AFTER_APP_COMPLETION);
    assertThat(process.forceKills).hasValue(1);
    assertThat(process.treeAlive()).isFalse();
  }

  @Test
  void launchFailureCompletesWithoutALaunch() {
    TestProbe<ContainerActor.Report> reports = testKit.createTestProbe();
    ProcessLauncher broken = s -> {
      throw new IOException("no bash here");
    };
    testKit.spawn(ContainerActor.create(spec(), broken, GRACE, reports.getRef()));

    ContainerActor.Finished f = reports.expectMessageClass(ContainerActor.Finished.class);
    assertThat(f.exitStatus()).isEqualTo(ExitStatus.INVALID);
    assertThat(f.diagnostics()).contains("no bash here");
  }

  private LaunchSpec spec() {
    return new LaunchSpec("c1", "application_1_0001", "alice", Resource.of(128, 1), Map.of(), List.of("true"),
        dir, dir);
  }
}
