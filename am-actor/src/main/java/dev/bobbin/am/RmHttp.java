package dev.bobbin.am;

import dev.bobbin.protocol.RemoteException;
import dev.bobbin.protocol.WirePaths;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/** Posts AM protocol calls to one RM member; never fails the returned stage. */
final class RmHttp {
  private final HttpClient client;
  private final String amToken;
  private final Duration requestTimeout;

  RmHttp(HttpClient client, String amToken, Duration requestTimeout) {
    this.client = client;
    this.amToken = amToken;
    this.requestTimeout = requestTimeout;
  }

  static HttpClient newHttpClient(Duration connectTimeout) {
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(connectTimeout)
        .followRedirects(HttpClient.Redirect.NORMAL)
        .build();
  }

  <T> CompletionStage<RmReply<T>> post(String baseUrl, String path, Object body, Class<T> type) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(baseUrl + path))
            .timeout(requestTimeout)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json")
            .header(WirePaths.AM_TOKEN_HEADER, amToken)
            .POST(HttpRequest.BodyPublishers.ofByteArray(WireCodec.write(body)))
            .build();
    return client
        .sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())
        .handle((response, error) -> error != null ? unreachable(error) : decode(response, type));
  }

  private static <T> RmReply<T> decode(HttpResponse<byte[]> response, Class<T> type) {
    int status = response.statusCode();
    if (status / 100 == 2) {
      try {
        return new RmReply.Ok<>(WireCodec.read(response.body(), type));
      } catch (IOException e) {
        return new RmReply.Unreachable<>(
            "unreadable " + type.getSimpleName() + " (" + e.getMessage() + ")");
      }
    }
    Optional<RemoteException.Body> remote = WireCodec.remoteException(response.body());
    return remote
        .<RmReply<T>>map(b -> new RmReply.Rejected<>(status, b.exception(), String.valueOf(b.message())))
        .orElseGet(() -> new RmReply.Rejected<>(status, "", WireCodec.excerpt(response.body())));
  }

  static <T> RmReply<T> unreachable(Throwable error) {
    Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    String message = cause.getMessage();
    return new RmReply.Unreachable<>(
        cause.getClass().getSimpleName() + (message == null ? "" : ": " + message));
  }
}
