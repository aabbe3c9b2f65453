package dev.bobbin.node;

import static dev.bobbin.node.NmFixture.containerId;
import static dev.bobbin.node.NmFixture.newApplicationId;
import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.WirePaths;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With ACLs on, a container's details and logs are its user's, the NodeManager's user's and the
 * administrators' to read: another authenticated user is refused with 403 and sees nothing of them.
 */
class ContainerLogAccessIT {
  @Test
  void anotherUserIsRefusedTheContainersLogsWhileItsUserAndAnAdministratorReadThem(@TempDir Path dir) throws Exception {
    try (NmFixture f = new NmFixture(dir)) {
      TestingRm rm = f.rm();
      NodeManager nm = NodeManager.start(f.settings(List.of(rm.url())), ConfigFactory.parseMap(Map.of(
          "bobbin.security.acl-enable", true,
          "bobbin.security.admin-acl", "ops")).withFallback(ConfigFactory.load()));
      f.closeables.add(0, nm);
      f.eventually(() -> assertThat(rm.heartbeats).isNotEmpty());
      NmHttp http = new NmHttp(nm.httpAddress());
      String container = containerId(newApplicationId(), 1);
      f.startOne(http, rm, nm, container, "echo hello from alice");
      String logs = WirePaths.NM_CONTAINERS + "/" + container + "/logs";
      f.eventually(() -> assertThat(as(http, "alice", logs + "/stdout").body()).contains("hello from alice"));

      HttpResponse<String> bob = as(http, "bob", logs + "/stdout");
      assertThat(bob.statusCode()).isEqualTo(403);
      assertThat(bob.body()).contains("AccessControlException").doesNotContain("hello from alice");
      assertThat(as(http, "bob", logs).statusCode()).isEqualTo(403);
      assertThat(as(http, "bob", WirePaths.NM_CONTAINERS + "/" + container).statusCode()).isEqualTo(403);
      assertThat(as(http, "ops", logs + "/stdout").body()).contains("hello from alice");
      assertThat(as(http, "alice", logs).statusCode()).isEqualTo(200);
    }
  }

  private static HttpResponse<String> as(NmHttp http, String user, String path) {
    return http.request("GET", path + "?user.name=" + user, null, null);
  }
}
