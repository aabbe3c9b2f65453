package dev.bobbin.node;

import static dev.bobbin.node.NmFixture.containerId;
import static dev.bobbin.node.NmFixture.newApplicationId;
import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.ContainerState;
import dev.bobbin.protocol.ContainerStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * With log aggregation on, an ended application's container logs are copied to the cluster's log
 * directory, one directory per node and container, before the node deletes its own copy; the log
 * page then serves the aggregated copy.
 */
class LogAggregationIT {
  @RegisterExtension final NmFixture fx = NmFixture.perTest();
  final Path workDir = fx.workDir;

  @Test
  void anEndedApplicationsLogsAreAggregatedWithoutLinksThenTheNodesCopyGoes() throws Exception {
    Path remote = workDir.resolve("remote");
    Path secret = Files.writeString(workDir.resolve("secret"), "not a log");
    TestingRm rm = fx.rm();
    NodeManager nm = fx.registeredNm(rm, ConfigFactory.parseString("""
        bobbin.nm { log-retain = 1s, log-aggregation { enabled = true, remote-app-log-dir = "%s" } }
        """.formatted(remote)));
    NmHttp http = new NmHttp(nm.httpAddress());
    String app = newApplicationId();
    String first = containerId(app, 1);
    String second = containerId(app, 2);
    fx.startOne(http, rm, nm, first, "echo out of one; echo err of one >&2; ln -s " + secret + " $LOG_DIRS/link; "
        + "mkdir $LOG_DIRS/sub; echo nested > $LOG_DIRS/sub/file; echo more > $LOG_DIRS/syslog");
    fx.startOne(http, rm, nm, second, "echo out of two; sleep 600");
    fx.eventually(() -> assertThat(rm.lastReported(first)).get().returns(ContainerState.COMPLETE, ContainerStatus::state));
    Path local = workDir.resolve(nm.nodeId().replace(':', '_')).resolve("logs").resolve(app);
    assertThat(local.resolve(first).resolve("link")).isSymbolicLink();

    rm.applicationsToCleanup.add(app);

    Path aggregated = remote.resolve("alice/logs").resolve(app).resolve(nm.nodeId().replace(':', '_'));
    fx.eventually(() -> assertThat(local).doesNotExist());
    assertThat(aggregated.resolve(first).resolve("stdout")).hasContent("out of one");
    assertThat(aggregated.resolve(first).resolve("stderr")).hasContent("err of one");
    assertThat(aggregated.resolve(first).resolve("syslog")).hasContent("more");
    // The second container was killed when its application ended; what it wrote until then is there.
    assertThat(aggregated.resolve(second).resolve("stdout")).hasContent("out of two");
    // Links and directories are not log files: nothing is read through a link the container made.
    try (var files = Files.list(aggregated.resolve(first))) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("stdout", "stderr", "syslog");
    }
    try (var parts = Files.list(aggregated.getParent())) {
      assertThat(parts.map(p -> p.getFileName().toString())).containsExactly(aggregated.getFileName().toString());
    }

    // The node's copy is gone; the log page the RM's reports link to serves the aggregated one.
    String page = "/node/containerlogs/" + first + "/alice";
    assertThat(http.get(page).body()).contains("Aggregated by this node").contains(page + "/stdout");
    assertThat(http.get(page + "/stderr").body()).isEqualTo("err of one\n");
    assertThat(http.get("/node/containerlogs/" + first + "/bob").statusCode()).isEqualTo(404);
  }

  @Test
  void aggregatedLogsPastTheirRetentionAreDeletedAndNothingElseUnderTheDirectory() throws Exception {
    Path remote = workDir.resolve("remote");
    Path old = Files.createDirectories(remote.resolve("carol/logs/application_1600000000000_0001/host_1/c"));
    Path other = Files.createDirectories(remote.resolve("carol/logs/not-an-application"));
    Files.setLastModifiedTime(old.getParent(), java.nio.file.attribute.FileTime.fromMillis(0));
    Files.setLastModifiedTime(old.getParent().getParent(), java.nio.file.attribute.FileTime.fromMillis(0));
    Files.setLastModifiedTime(other, java.nio.file.attribute.FileTime.fromMillis(0));
    TestingRm rm = fx.rm();
    fx.registeredNm(rm, ConfigFactory.parseString("""
        bobbin.nm.log-aggregation { enabled = true, remote-app-log-dir = "%s", retain = 1h,
          retain-check-interval = 100ms }
        """.formatted(remote)));

    fx.eventually(() -> assertThat(old.getParent().getParent()).doesNotExist());
    assertThat(other).isDirectory();
  }
}
