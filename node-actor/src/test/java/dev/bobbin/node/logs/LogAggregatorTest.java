package dev.bobbin.node.logs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.config.LogAggregationSettings;
import dev.bobbin.node.cleanup.DeletionService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.LoggingTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogAggregatorTest {
  private static final ActorTestKit testKit = ActorTestKit.create();
  private static final String APP = "application_1700000000000_0001";
  private static final String CONTAINER = "container_1700000000000_0001_01_000001";
  private static final Duration RETAIN = Duration.ofMinutes(5);

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  private static LogAggregationSettings settings(Path remote) {
    return new LogAggregationSettings(true, remote, Optional.empty(), Duration.ofSeconds(1), Duration.ofMillis(100));
  }

  private static Path appLogs(Path dir) throws Exception {
    Path container = Files.createDirectories(dir.resolve("logs").resolve(APP).resolve(CONTAINER));
    Files.writeString(container.resolve("stdout"), "out");
    return container.getParent();
  }

  @Test
  void theNodesCopyIsHandedToTheDeletionsOnlyOnceItIsAggregated(@TempDir Path dir) throws Exception {
    Path logs = appLogs(dir);
    Path remote = dir.resolve("remote");
    TestProbe<DeletionService.Command> deletions = testKit.createTestProbe();
    var aggregator = testKit.spawn(LogAggregator.create(settings(remote), "host:42", RETAIN, deletions.ref()));

    aggregator.tell(new LogAggregator.Aggregate(APP, "alice", logs));

    assertThat(deletions.receiveMessage(Duration.ofSeconds(5))).isEqualTo(new DeletionService.DeleteAfter(logs, RETAIN));
    assertThat(remote.resolve("alice/logs").resolve(APP).resolve("host_42").resolve(CONTAINER).resolve("stdout"))
        .hasContent("out");
  }

  @Test
  void aFailedCopyIsLoggedAndTriedAgainWhileTheNodesCopyStays(@TempDir Path dir) throws Exception {
    Path logs = appLogs(dir);
    // The log directory cannot be made while a file is in its way.
    Path remote = Files.writeString(dir.resolve("remote"), "in the way");
    TestProbe<DeletionService.Command> deletions = testKit.createTestProbe();
    var aggregator = testKit.spawn(LogAggregator.create(settings(remote), "host:42", RETAIN, deletions.ref()));

    LoggingTestKit.warn("Could not aggregate the logs of application " + APP).withOccurrences(2)
        .expect(testKit.system(), () -> {
          aggregator.tell(new LogAggregator.Aggregate(APP, "alice", logs));
          return null;
        });
    deletions.expectNoMessage(Duration.ofMillis(200));
    assertThat(logs.resolve(CONTAINER).resolve("stdout")).hasContent("out");

    Files.delete(remote);
    assertThat(deletions.receiveMessage(Duration.ofSeconds(5))).isEqualTo(new DeletionService.DeleteAfter(logs, RETAIN));
    assertThat(remote.resolve("alice/logs").resolve(APP).resolve("host_42").resolve(CONTAINER).resolve("stdout"))
        .hasContent("out");
  }
}
