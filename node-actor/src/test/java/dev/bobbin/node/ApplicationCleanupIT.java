package dev.bobbin.node;

import static dev.bobbin.node.NmFixture.containerId;
import static dev.bobbin.node.NmFixture.newApplicationId;
import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.ContainerState;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** When the RM says an application ended, the node deletes its directories once its containers there are done. */
class ApplicationCleanupIT {
  @RegisterExtension final NmFixture fx = NmFixture.perTest();
  final Path workDir = fx.workDir;

  private Path nodeRoot(NodeManager nm) {
    return workDir.resolve(nm.nodeId().replace(':', '_'));
  }

  @Test
  void anEndedApplicationsLocalDirectoryGoesAtOnceAndItsLogsAfterTheirRetention() {
    TestingRm rm = fx.rm();
    NodeManager nm = fx.registeredNm(rm, ConfigFactory.parseString(
        "bobbin.nm { delete-debug-delay = 0s, log-retain = 1s }"));
    NmHttp http = new NmHttp(nm.httpAddress());
    String app = newApplicationId();
    String running = containerId(app, 1);
    String other = containerId(newApplicationId(), 1);
    fx.startOne(http, rm, nm, running, "echo hi > here; sleep 600");
    fx.startOne(http, rm, nm, other, "echo other > here; sleep 600");
    Path local = nodeRoot(nm).resolve("usercache/alice/appcache/" + app);
    Path logs = nodeRoot(nm).resolve("logs/" + app);
    fx.eventually(() -> assertThat(local.resolve(running).resolve("here")).exists());
    assertThat(logs.resolve(running)).isDirectory();

    rm.applicationsToCleanup.add(app);

    fx.eventually(() -> assertThat(rm.lastReported(running)).get()
        .returns(ContainerState.COMPLETE, ContainerStatus::state)
        .returns(ExitStatus.KILLED_AFTER_APP_COMPLETION, ContainerStatus::exitStatus));
    fx.eventually(() -> assertThat(local).doesNotExist());
    fx.eventually(() -> assertThat(logs).doesNotExist());
    // Another application's files are not touched.
    Path otherLocal = nodeRoot(nm).resolve("usercache/alice/appcache/" + dev.bobbin.protocol.Ids.applicationIdOfContainer(other));
    assertThat(otherLocal.resolve(other).resolve("here")).exists();
  }

  @Test
  void theDebugDelayKeepsTheLocalDirectoryAfterTheLogsWent() {
    TestingRm rm = fx.rm();
    NodeManager nm = fx.registeredNm(rm, ConfigFactory.parseString(
        "bobbin.nm { delete-debug-delay = 1h, log-retain = 1s }"));
    NmHttp http = new NmHttp(nm.httpAddress());
    String app = newApplicationId();
    String id = containerId(app, 1);
    fx.startOne(http, rm, nm, id, "echo hi > here");
    fx.eventually(() -> assertThat(rm.lastReported(id)).get().returns(ContainerState.COMPLETE, ContainerStatus::state));
    Path local = nodeRoot(nm).resolve("usercache/alice/appcache/" + app);

    rm.applicationsToCleanup.add(app);

    fx.eventually(() -> assertThat(nodeRoot(nm).resolve("logs/" + app)).doesNotExist());
    assertThat(local.resolve(id).resolve("here")).exists();
    assertThat(Files.isDirectory(local)).isTrue();
  }
}
