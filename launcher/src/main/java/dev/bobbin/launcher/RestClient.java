package dev.bobbin.launcher;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.protocol.WireJson;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A small blocking JSON client for the quickstart, which drives the cluster as a user would. */
final class RestClient {
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  record Reply(int status, String body) {
    JsonNode json() throws IOException {
      return WireJson.mapper().readTree(body);
    }
  }

  Reply get(String url) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(15)).GET().build());
  }

  Reply post(String url, Object body) throws IOException, InterruptedException {
    String json = body == null ? "" : WireJson.mapper().writeValueAsString(body);
    return send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(15))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build());
  }

  private Reply send(HttpRequest req) throws IOException, InterruptedException {
    HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
    return new Reply(r.statusCode(), r.body());
  }
}
