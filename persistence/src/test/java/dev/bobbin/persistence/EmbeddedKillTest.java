package dev.bobbin.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.bobbin.persistence.testing.TestJournals;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.persistence.query.Offset;
import org.apache.pekko.stream.javadsl.Sink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the embedded journal promises an RM member: acknowledged writes survive kill -9. */
class EmbeddedKillTest {
  static final String ID = "killed-writer";
  private static final int WRITES = 25;

  @TempDir Path dataDir;

  @Test
  void acknowledgedEventsSurviveKill9AndTheRestartOpensTheSameDirectory() throws Exception {
    Process writer = new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"),
            LedgerWriterMain.class.getName(), dataDir.toString(), Integer.toString(WRITES))
        .redirectErrorStream(true)
        .start();
    StringBuilder transcript = new StringBuilder();
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = r.readLine()) != null; ) lines.add(line);
      } catch (IOException ignored) {
        // the child was killed
      }
    }, "writer-output");
    reader.setDaemon(true);
    reader.start();
    try {
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      String line = "";
      while (!line.equals("DONE")) {
        line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        if (line == null) fail("writer did not finish; its output:\n" + transcript);
        transcript.append(line).append('\n');
      }
    } finally {
      // SIGKILL right after the last acknowledgement: nothing gets to flush or close.
      writer.destroyForcibly();
    }
    assertThat(writer.waitFor(20, TimeUnit.SECONDS)).isTrue();
    assertThat(writer.exitValue()).as("killed by SIGKILL").isEqualTo(137);

    ActorTestKit kit = ActorTestKit.create(TestJournals.embedded(dataDir));
    try {
      TestJournals.ensureSchema(kit.system());
      ActorRef<Ledger.Command> ledger = kit.spawn(Ledger.create(ID, "killed", kit.<Ledger.Observed>createTestProbe().ref()));
      List<String> expected = IntStream.rangeClosed(1, WRITES).mapToObj(Integer::toString).toList();
      assertThat(JournalContract.get(kit, ledger, JournalContract.FIRST).items()).isEqualTo(expected);

      // The kill lost the block of orderings H2 had reserved (schema/h2.sql): a read model must
      // still see the events written after the restart, past the gap.
      String next = Integer.toString(WRITES + 1);
      JournalContract.add(kit, ledger, next, JournalContract.WAIT);
      List<JournalContract.Seen> tail = ReadJournals.of(kit.system()).eventsByTag("killed", Offset.noOffset())
          .map(JournalContract::seen)
          .takeWhile(seen -> !seen.item().equals(next), true)
          .runWith(Sink.seq(), kit.system())
          .toCompletableFuture().get(30, TimeUnit.SECONDS);
      JournalContract.Seen beforeKill = tail.get(tail.size() - 2);
      JournalContract.Seen afterKill = tail.get(tail.size() - 1);
      assertThat(beforeKill.item()).isEqualTo(Integer.toString(WRITES));
      assertThat(afterKill.offset()).as("ordering after the kill's gap").isGreaterThan(beforeKill.offset() + 1);
    } finally {
      kit.shutdownTestKit();
    }
  }
}
