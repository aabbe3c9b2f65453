package dev.bobbin.core.directory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.app.AppReport;
import dev.bobbin.core.app.AppState;
import dev.bobbin.core.app.ApplicationEntity;
import dev.bobbin.core.app.Submission;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.Ids;
import dev.bobbin.protocol.Resource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.persistence.query.EventEnvelope;
import org.apache.pekko.persistence.query.Offset;
import org.apache.pekko.stream.javadsl.Source;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The application list: when it starts reading, and what it makes of what it reads. */
class AppDirectoryTest {
  private static final ActorTestKit testKit = ActorTestKit.create();
  private static final String APP = "application_1700000000000_0007";

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  private static List<EventEnvelope> killedApp() {
    Submission s = new Submission(APP, "shell", "alice", "default", 0, "YARN", List.of(), new Resource(1024, 1),
        new ContainerLaunchContext(List.of("true"), Map.of()), 2);
    List<ApplicationEntity.Event> events = List.of(
        new ApplicationEntity.Submitted(s, 1L),
        new ApplicationEntity.AttemptStarted(Ids.attemptId(APP, 1), 1, 2L),
        new ApplicationEntity.AppKilled("killed by test", 3L));
    return java.util.stream.IntStream.range(0, events.size())
        .mapToObj(i -> new EventEnvelope(Offset.sequence(i + 1), "Application|" + APP, i + 1, events.get(i), 0L))
        .toList();
  }

  private static List<AppReport> list(ActorRef<AppDirectory.Command> directory) {
    TestProbe<AppDirectory.Apps> probe = testKit.createTestProbe();
    directory.tell(new AppDirectory.ListApps(probe.ref()));
    return probe.receiveMessage().apps();
  }

  @Test
  void readsNothingUntilTheSchedulerHasRecoveredThenFoldsEveryApplication() {
    CompletableFuture<Done> schedulerRecovered = new CompletableFuture<>();
    AtomicInteger reads = new AtomicInteger();
    List<AppReport> ended = new CopyOnWriteArrayList<>();
    ActorRef<AppDirectory.Command> directory = testKit.spawn(AppDirectory.create(ended::add,
        system -> schedulerRecovered,
        system -> {
          reads.incrementAndGet();
          return Source.from(killedApp());
        }));

    assertThat(list(directory)).isEmpty();
    assertThat(reads).hasValue(0);

    schedulerRecovered.complete(Done.getInstance());
    testKit.createTestProbe().awaitAssert(() -> {
      assertThat(list(directory)).singleElement().satisfies(r -> {
        assertThat(r.id()).isEqualTo(APP);
        assertThat(r.state()).isEqualTo(AppState.KILLED);
      });
      return null;
    });
    assertThat(reads).hasValue(1);
    assertThat(ended).singleElement().returns(APP, AppReport::id);
  }

  @Test
  void readsAnywayWhenTheSchedulerDoesNotAnswer() {
    ActorRef<AppDirectory.Command> directory = testKit.spawn(AppDirectory.create(report -> { },
        system -> CompletableFuture.failedFuture(new java.util.concurrent.TimeoutException("no scheduler")),
        system -> Source.from(killedApp())));

    testKit.createTestProbe().awaitAssert(() -> {
      assertThat(list(directory)).extracting(AppReport::id).containsExactly(APP);
      return null;
    });
  }
}
