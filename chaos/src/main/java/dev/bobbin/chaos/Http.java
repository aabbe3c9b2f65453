package dev.bobbin.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** JSON over HTTP to the cluster on 127.0.0.1; every call has a timeout. */
final class Http {
  static final ObjectMapper JSON = new ObjectMapper();

  record Reply(int status, String body) {
    boolean ok() {
      return status >= 200 && status < 300;
    }

    JsonNode json() throws IOException {
      return JSON.readTree(body.isEmpty() ? "{}" : body);
    }
  }

  private final HttpClient client = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(1))
      .build();

  Reply get(String url, Duration timeout) throws IOException {
    return send(HttpRequest.newBuilder(URI.create(url)).GET(), timeout);
  }

  Reply post(String url, String json, Duration timeout) throws IOException {
    return send(HttpRequest.newBuilder(URI.create(url))
        .header("Content-Type", "application/json")
        .POST(json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json)), timeout);
  }

  private Reply send(HttpRequest.Builder request, Duration timeout) throws IOException {
    try {
      HttpResponse<String> r = client.send(request.timeout(timeout).header("Accept", "application/json").build(),
          HttpResponse.BodyHandlers.ofString());
      return new Reply(r.statusCode(), r.body() == null ? "" : r.body());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted");
    }
  }
}
