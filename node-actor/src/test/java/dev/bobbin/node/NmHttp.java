package dev.bobbin.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bobbin.protocol.WireJson;
import dev.bobbin.protocol.WirePaths;
import dev.bobbin.protocol.node.ContainerManagement.GetContainerStatusesRequest;
import dev.bobbin.protocol.node.ContainerManagement.GetContainerStatusesResponse;
import dev.bobbin.protocol.node.ContainerManagement.StartContainersRequest;
import dev.bobbin.protocol.node.ContainerManagement.StartContainersResponse;
import dev.bobbin.protocol.node.ContainerManagement.StopContainersRequest;
import dev.bobbin.protocol.node.ContainerManagement.StopContainersResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * A plain HTTP client of one NodeManager, as an AM or a REST user would call it: a REST user as
 * {@value #USER}, named as the NM's simple authentication expects.
 */
final class NmHttp {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
  static final String USER = "dr.who";
  private final ObjectMapper json = WireJson.mapper();
  private final String base;

  NmHttp(String httpAddress) {
    this.base = "http://" + httpAddress;
  }

  HttpResponse<String> get(String path) {
    return send(HttpRequest.newBuilder(URI.create(base + path + (path.contains("?") ? "&" : "?") + "user.name=" + USER))
        .GET());
  }

  /** A GET that names no user. */
  HttpResponse<String> getAnonymously(String path) {
    return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
  }

  HttpResponse<String> post(String path, String body) {
    return send(HttpRequest.newBuilder(URI.create(base + path))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  /** Any method, with a body of any type; {@code contentType} null for none. */
  HttpResponse<String> request(String method, String path, String contentType, String body) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    return send(contentType == null ? b : b.header("Content-Type", contentType));
  }

  JsonNode getJson(String path) {
    HttpResponse<String> r = get(path);
    if (r.statusCode() != 200) throw new AssertionError("GET " + path + " answered " + r.statusCode() + ": " + r.body());
    return readTree(r.body());
  }

  StartContainersResponse start(StartContainersRequest req) {
    return call(WirePaths.NM_START_CONTAINERS, req, StartContainersResponse.class);
  }

  StopContainersResponse stop(StopContainersRequest req) {
    return call(WirePaths.NM_STOP_CONTAINERS, req, StopContainersResponse.class);
  }

  GetContainerStatusesResponse statuses(GetContainerStatusesRequest req) {
    return call(WirePaths.NM_CONTAINER_STATUSES, req, GetContainerStatusesResponse.class);
  }

  JsonNode readTree(String body) {
    try {
      return json.readTree(body);
    } catch (IOException e) {
      throw new AssertionError("not JSON: " + body, e);
    }
  }

  private <T> T call(String path, Object req, Class<T> answer) {
    try {
      HttpResponse<String> r = post(path, json.writeValueAsString(req));
      if (r.statusCode() != 200) throw new AssertionError("POST " + path + " answered " + r.statusCode() + ": " + r.body());
      return json.readValue(r.body(), answer);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static HttpResponse<String> send(HttpRequest.Builder b) {
    try {
      return HTTP.send(b.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new AssertionError(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
