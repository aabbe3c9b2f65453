package dev.bobbin.launcher.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.protocol.client.BobbinHttp;
import dev.bobbin.protocol.client.Call;

/** Calls to one RM member, which answers for itself: its view of the cluster, its management endpoints. */
record OneMember(BobbinHttp http, String url) {
  JsonNode get(String path) {
    return http.sendAndWait(Call.get(url, path)).as(JsonNode.class);
  }

  JsonNode put(String path, Object body) {
    return http.sendAndWait(Call.put(url, path, body)).as(JsonNode.class);
  }
}
