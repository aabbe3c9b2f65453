package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import dev.bobbin.node.server.NodeManager;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bobbin submit --file/--archive} on real processes: the distributed-shell AM lists them in
 * its containers' launch contexts, the NodeManager localizes them, and the workers read them from
 * their working directories.
 */
class ShippedFilesIT {
  private static final Pattern SUBMITTED = Pattern.compile("Submitted application (application_\\d+_\\d+)");

  private RmMember rm;
  private NodeManager nm;

  @AfterEach
  void stop() {
    if (nm != null) nm.close();
    if (rm != null) rm.close();
  }

  @Test
  void theWorkersFindTheShippedFileAndTheUnpackedArchive(@TempDir Path dir) throws Exception {
    Path input = Files.writeString(dir.resolve("input.txt"), "shipped line\n");
    Path archive = dir.resolve("tools.zip");
    try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(archive))) {
      zip.putNextEntry(new ZipEntry("bin/greeting.txt"));
      zip.write("from the archive\n".getBytes(StandardCharsets.UTF_8));
      zip.closeEntry();
    }
    rm = RmMember.start(ConfigFactory.parseMap(Map.of(
        "bobbin.data-dir", dir.resolve("rm").toString(),
        "bobbin.rm.http-port", RestApiIT.freePort(),
        "pekko.remote.artery.canonical.port", RestApiIT.freePort())));
    nm = ItNodes.start(rm, dir.resolve("nm"), ConfigFactory.empty());
    String base = rm.url() + "/ws/v1/cluster";
    Http.await(Duration.ofSeconds(30), "the node", () ->
        Http.get(base + "/nodes?states=RUNNING").json().path("nodes").path("node").size() == 1);

    MainTest.Result submitted = MainTest.run("submit", "--rm", rm.url(),
        "--shell", "cat input.txt tools.zip/bin/greeting.txt", "--containers", "2", "--memory", "256",
        "--am-memory", "512", "--file", input.toString(), "--archive", archive.toString(), "--wait");
    assertThat(submitted.exitCode()).as(submitted.out() + submitted.err()).isZero();

    Matcher m = SUBMITTED.matcher(submitted.out());
    assertThat(m.find()).isTrue();
    MainTest.Result logs = MainTest.run("logs", m.group(1), "--rm", rm.url(), "--log-file", "stdout");
    assertThat(logs.exitCode()).as(logs.err()).isZero();
    assertThat(logs.out().split("shipped line\nfrom the archive\n", -1)).as(logs.out()).hasSize(3);
  }
}
