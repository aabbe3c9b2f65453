package dev.bobbin.node;

import static dev.bobbin.node.NmFixture.containerId;
import static dev.bobbin.node.NmFixture.newApplicationId;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.ContainerState;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.WirePaths;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The log pages the RM's reports link to ({@code /node/containerlogs/{id}/{user}} and its files),
 * and the REST logs of a container the node no longer holds a record of: served from the node's
 * log directory while it is there, to those who may read the container's logs.
 */
class ContainerLogPagesIT {
  @RegisterExtension final NmFixture fx = NmFixture.perTest();

  @Test
  void thePageListsEachLogFileWithItsSizeAndLinksToItsText() {
    TestingRm rm = fx.rm();
    NodeManager nm = fx.registeredNm(rm);
    NmHttp http = new NmHttp(nm.httpAddress());
    String id = containerId(newApplicationId(), 1);
    fx.startOne(http, rm, nm, id, "echo hello out; echo hello err >&2; sleep 600");
    String page = "/node/containerlogs/" + id + "/alice";
    fx.eventually(() -> assertThat(http.get(page + "/stderr").body()).isEqualTo("hello err\n"));

    HttpResponse<String> listing = http.get(page);
    assertThat(listing.statusCode()).isEqualTo(200);
    assertThat(listing.headers().firstValue("Content-Type")).get().asString().startsWith("text/html");
    assertThat(listing.body())
        .contains("<a href=\"" + page + "/stdout\">stdout</a> : Total file length is 10 bytes.")
        .contains("<a href=\"" + page + "/stderr\">stderr</a> : Total file length is 10 bytes.");
    HttpResponse<String> stdout = http.get(page + "/stdout");
    assertThat(stdout.headers().firstValue("Content-Type")).get().asString().startsWith("text/plain");
    assertThat(stdout.body()).isEqualTo("hello out\n");
    // The same with a trailing slash, as a browser may ask.
    assertThat(http.get(page + "/").body()).contains("stdout");
  }

  @Test
  void badNamesAndUnknownContainersAreRefusedAsTheRestFileEndpointRefusesThem() {
    TestingRm rm = fx.rm();
    NodeManager nm = fx.registeredNm(rm);
    NmHttp http = new NmHttp(nm.httpAddress());
    String id = containerId(newApplicationId(), 1);
    fx.startOne(http, rm, nm, id, "echo hi; sleep 600");
    String page = "/node/containerlogs/" + id + "/alice";
    String rest = WirePaths.NM_CONTAINERS + "/" + id + "/logs";
    fx.eventually(() -> assertThat(http.get(page + "/stdout").statusCode()).isEqualTo(200));

    for (String base : List.of(page, rest)) {
      assertRefused(http.get(base + "/a%5Cb"), 400, "Invalid log file name: a\\\\b"); // JSON escapes the backslash
      assertRefused(http.get(base + "/..%2Fstdout"), 400, "Invalid log file name: ../stdout");
      assertRefused(http.get(base + "/nope"), 404, "Log file nope of container " + id + " not found");
    }
    assertRefused(http.get("/node/containerlogs/" + id + "/a%2Fb"), 400, "Invalid user: a/b");
    assertRefused(http.get("/node/containerlogs/container_bad/alice"), 400, "Invalid ContainerId");
    String unknown = containerId(newApplicationId(), 7);
    assertRefused(http.get("/node/containerlogs/" + unknown + "/alice"), 404, "No logs of container " + unknown);
    assertRefused(http.get(WirePaths.NM_CONTAINERS + "/" + unknown + "/logs"), 404, "not found");
    assertRefused(http.getAnonymously(page), 401, "AuthenticationException");
  }

  @Test
  void withAclsOnAnotherUserIsRefusedThePageAndItsFilesWhileTheContainersUserAndAnAdministratorReadThem() {
    TestingRm rm = fx.rm();
    NodeManager nm = fx.registeredNm(rm, ConfigFactory.parseMap(Map.of(
        "bobbin.security.acl-enable", true, "bobbin.security.admin-acl", "ops")));
    NmHttp http = new NmHttp(nm.httpAddress());
    String id = containerId(newApplicationId(), 1);
    fx.startOne(http, rm, nm, id, "echo secret of alice; sleep 600");
    String page = "/node/containerlogs/" + id + "/alice";
    fx.eventually(() -> assertThat(as(http, "alice", page + "/stdout").body()).contains("secret of alice"));

    for (String path : List.of(page, page + "/stdout")) {
      HttpResponse<String> bob = as(http, "bob", path);
      assertThat(bob.statusCode()).as(path).isEqualTo(403);
      assertThat(bob.body()).contains("AccessControlException").doesNotContain("secret of alice");
    }
    // Naming bob as the owner in the link gives him nothing either: the node knows whose the container is.
    assertThat(as(http, "bob", "/node/containerlogs/" + id + "/bob/stdout").statusCode()).isEqualTo(403);
    assertThat(as(http, "ops", page + "/stdout").body()).contains("secret of alice");
    assertThat(as(http, "alice", page).body()).contains("stdout");
  }

  @Test
  void aContainerFromAnEarlierRunOfTheNodeStillHasItsLogsServedWhileTheyAreThere() throws Exception {
    TestingRm rm = fx.rm();
    NodeManager first = fx.registeredNm(rm);
    NmHttp http = new NmHttp(first.httpAddress());
    String id = containerId(newApplicationId(), 1);
    fx.startOne(http, rm, first, id, "echo before the restart");
    fx.eventually(() -> assertThat(rm.lastReported(id)).get().returns(ContainerState.COMPLETE, ContainerStatus::state));
    int port = first.boundPort();
    first.close();
    fx.closeables.remove(first);

    // The same node (same port, same work dir) started again: it holds no record of the container.
    NodeManager second = NodeManager.start(fx.settings(List.of(rm.url()), port));
    fx.closeables.add(0, second);
    assertThat(http.getJson(WirePaths.NM_CONTAINERS).path("containers").path("container").size()).isZero();

    assertThat(http.get(WirePaths.NM_CONTAINERS + "/" + id + "/logs/stdout").body()).isEqualTo("before the restart\n");
    JsonNode listing = http.getJson(WirePaths.NM_CONTAINERS + "/" + id + "/logs").path("containerLogsInfo");
    assertThat(listing.path("containerLogInfo").findValuesAsText("fileName")).contains("stdout", "stderr");
    assertThat(http.get("/node/containerlogs/" + id + "/alice/stdout").body()).isEqualTo("before the restart\n");
  }

  private static void assertRefused(HttpResponse<String> r, int status, String message) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    assertThat(r.body()).contains("RemoteException").contains(message);
  }

  private static HttpResponse<String> as(NmHttp http, String user, String path) {
    return http.request("GET", path + "?user.name=" + user, null, null);
  }
}
