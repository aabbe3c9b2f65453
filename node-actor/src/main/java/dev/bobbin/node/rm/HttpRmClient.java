package dev.bobbin.node.rm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bobbin.protocol.RemoteException;
import dev.bobbin.protocol.WireJson;
import dev.bobbin.protocol.WirePaths;
import dev.bobbin.protocol.node.NodeHeartbeatRequest;
import dev.bobbin.protocol.node.NodeHeartbeatResponse;
import dev.bobbin.protocol.node.RegisterNodeRequest;
import dev.bobbin.protocol.node.RegisterNodeResponse;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * RM calls over HTTP/JSON with the JDK client: plain HTTP/1.1, a connect and a request timeout so
 * that a hung member is abandoned for the next one.
 */
public final class HttpRmClient implements RmClient {
  private final HttpClient http;
  private final Duration requestTimeout;
  private final ObjectMapper json = WireJson.mapper();

  public HttpRmClient(Duration connectTimeout, Duration requestTimeout) {
    this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(connectTimeout).build();
    this.requestTimeout = requestTimeout;
  }

  @Override
  public CompletionStage<RegisterNodeResponse> register(String rmBaseUrl, RegisterNodeRequest request) {
    return post(rmBaseUrl, WirePaths.NM_REGISTER, request, RegisterNodeResponse.class);
  }

  @Override
  public CompletionStage<NodeHeartbeatResponse> heartbeat(String rmBaseUrl, NodeHeartbeatRequest request) {
    return post(rmBaseUrl, WirePaths.NM_HEARTBEAT, request, NodeHeartbeatResponse.class);
  }

  private <T> CompletionStage<T> post(String base, String path, Object body, Class<T> answer) {
    String url = stripSlash(base) + path;
    HttpRequest req;
    try {
      req = HttpRequest.newBuilder(URI.create(url))
          .timeout(requestTimeout)
          .header("Content-Type", "application/json")
          .header("Accept", "application/json")
          .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body)))
          .build();
    } catch (JsonProcessingException | IllegalArgumentException e) {
      return CompletableFuture.failedFuture(new RmCallException("Cannot call " + url + ": " + e.getMessage(), true, e));
    }
    return http.sendAsync(req, HttpResponse.BodyHandlers.ofByteArray())
        .handle((resp, err) -> {
          if (err != null) {
            Throwable cause = err instanceof CompletionException && err.getCause() != null ? err.getCause() : err;
            throw new RmCallException(url + " unreachable: " + cause, true, cause);
          }
          return decode(url, resp, answer);
        });
  }

  private <T> T decode(String url, HttpResponse<byte[]> resp, Class<T> answer) {
    int status = resp.statusCode();
    if (status >= 200 && status < 300) {
      try {
        return json.readValue(resp.body(), answer);
      } catch (java.io.IOException e) {
        throw new RmCallException(url + " answered an unreadable body: " + e.getMessage(), true, e);
      }
    }
    throw new RmCallException(url + " answered " + status + ": " + errorMessage(resp.body()), status >= 500, null);
  }

  private String errorMessage(byte[] body) {
    try {
      RemoteException e = json.readValue(body, RemoteException.class);
      if (e != null && e.body() != null) return e.body().exception() + ": " + e.body().message();
    } catch (java.io.IOException ignored) {
      // Not a RemoteException: show the raw text.
    }
    String text = new String(body, java.nio.charset.StandardCharsets.UTF_8);
    return text.length() > 300 ? text.substring(0, 300) + "..." : text;
  }

  private static String stripSlash(String s) {
    return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
  }
}
