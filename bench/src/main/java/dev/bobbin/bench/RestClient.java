package dev.bobbin.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bobbin.protocol.WireJson;
import java.io.IOException;

/** YARN REST calls the scenarios make: new-application and submit, on one connection. */
final class RestClient {
  private static final ObjectMapper JSON = WireJson.mapper();

  /** Latencies of one submission's two calls, in nanoseconds. */
  record Timing(long newApp, long submit, String appId) {}

  private RestClient() {}

  /** A new application id, then its submission to {@code queue}; throws when either is refused. */
  static Timing submit(HttpConn conn, String queue, String command) throws IOException {
    long t0 = System.nanoTime();
    HttpConn.Reply id = conn.post("/ws/v1/cluster/apps/new-application", null);
    long t1 = System.nanoTime();
    if (!id.ok()) throw new IOException("new-application: HTTP " + id.status() + ": " + id.text());
    String appId = JSON.readTree(id.body()).path("application-id").asText();
    ObjectNode body = JSON.createObjectNode();
    body.put("application-id", appId);
    body.put("application-name", "bench");
    body.put("queue", queue);
    ObjectNode res = body.putObject("resource");
    res.put("memory", (int) Topology.CONTAINER.memory());
    res.put("vCores", Topology.CONTAINER.vCores());
    body.putObject("am-container-spec").putObject("commands").put("command", command);
    HttpConn.Reply sub = conn.post("/ws/v1/cluster/apps?user.name=bench", JSON.writeValueAsBytes(body));
    long t2 = System.nanoTime();
    if (sub.status() != 202) throw new IOException("submit: HTTP " + sub.status() + ": " + sub.text());
    return new Timing(t1 - t0, t2 - t1, appId);
  }

  static boolean answers(HttpConn conn, String path) {
    try {
      return conn.get(path).ok();
    } catch (IOException e) {
      return false;
    }
  }

  static JsonNode getJson(HttpConn conn, String path) throws IOException {
    HttpConn.Reply r = conn.get(path);
    if (!r.ok()) throw new IOException(path + ": HTTP " + r.status());
    return JSON.readTree(r.body());
  }
}
