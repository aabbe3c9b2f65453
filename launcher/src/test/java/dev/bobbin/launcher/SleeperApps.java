package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.am.shell.ShellAmSpec;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.WireJson;
import java.util.LinkedHashMap;
import java.util.Map;

/** Distributed-shell applications whose workers sleep, for whole-flow tests of sharing and preemption. */
final class SleeperApps {
  private SleeperApps() {}

  /** An application of {@code user} in {@code queue}: an AM and {@code workers} workers of 1 GB sleeping 300 s. */
  static String submit(String base, String user, String queue, int workers) throws Exception {
    String id = Http.post(base + "/apps/new-application?user.name=" + user, "").json().path("application-id").asText();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("application-id", id);
    body.put("application-name", "sleepers-" + queue);
    body.put("queue", queue);
    body.put("resource", new Resource(1024, 1));
    body.put("am-container-spec", Map.of("commands", Map.of("command",
        ShellAmSpec.commands(System.getProperty("java.class.path"), "sleep 300", workers, new Resource(1024, 1), 0))));
    Http.Reply r = Http.post(base + "/apps?user.name=" + user, WireJson.mapper().writeValueAsString(body));
    assertThat(r.status()).as(r.body()).isEqualTo(202);
    return id;
  }

  static long allocatedMb(String base, String appId) throws Exception {
    return Http.get(base + "/apps/" + appId).json().path("app").path("allocatedMB").asLong();
  }
}
