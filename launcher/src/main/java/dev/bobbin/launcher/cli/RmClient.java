package dev.bobbin.launcher.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.protocol.WireJson;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Calls the ResourceManager's REST API. With several RM addresses it tries them in order while
 * they refuse connections and then keeps using the one that answered.
 */
final class RmClient {
  static final String DEFAULT_RM = "http://127.0.0.1:8088";

  private final List<String> rms;
  private final String user;
  private final ClientContext context;
  private int current;

  private RmClient(List<String> rms, String user, ClientContext context) {
    this.rms = rms;
    this.user = user;
    this.context = context;
  }

  /**
   * From {@code --rm} (else env BOBBIN_RM, else the default) and {@code --user} (else the OS user);
   * either may be null when not given.
   */
  static RmClient from(String rmOption, String userOption, ClientContext context) {
    String env = context.rmFromEnv();
    String rm = rmOption != null ? rmOption : env == null || env.isBlank() ? DEFAULT_RM : env;
    String user = userOption != null ? userOption : context.osUser();
    if (user == null || user.isBlank()) throw new UsageException("--user must not be empty");
    return new RmClient(parseRmList(rm), user, context);
  }

  static List<String> parseRmList(String commaList) {
    List<String> out = new ArrayList<>();
    for (String raw : commaList.split(",")) {
      String rm = raw.strip();
      if (rm.isEmpty()) continue;
      URI uri;
      try {
        uri = new URI(rm);
      } catch (Exception e) {
        throw new UsageException("Invalid --rm URL '" + rm + "'");
      }
      String scheme = uri.getScheme();
      if (uri.getHost() == null || !("http".equals(scheme) || "https".equals(scheme))) {
        throw new UsageException("Invalid --rm URL '" + rm + "', expected http://host:port");
      }
      out.add(rm.endsWith("/") ? rm.substring(0, rm.length() - 1) : rm);
    }
    if (out.isEmpty()) throw new UsageException("--rm needs at least one URL");
    return List.copyOf(out);
  }

  String user() {
    return user;
  }

  RmResponse get(String path, Map<String, String> query) {
    return send("GET", path + queryString(query), null);
  }

  RmResponse get(String path) {
    return get(path, Map.of());
  }

  /** A write, made as {@link #user()}; {@code body} may be null. */
  RmResponse write(String method, String path, JsonNode body) {
    Map<String, String> query = new LinkedHashMap<>();
    query.put("user.name", user);
    return send(method, path + queryString(query), body == null ? null : toJson(body));
  }

  private RmResponse send(String method, String pathAndQuery, String body) {
    Exception lastRefusal = null;
    for (int tried = 0; tried < rms.size(); tried++) {
      int index = (current + tried) % rms.size();
      String uri = rms.get(index) + pathAndQuery;
      HttpResponse<String> response;
      try {
        response = context.http().send(request(method, uri, body), HttpResponse.BodyHandlers.ofString());
      } catch (ConnectException | HttpConnectTimeoutException refused) {
        lastRefusal = refused;
        continue;
      } catch (IOException e) {
        throw RmFailure.unreachable(rms.get(index), reason(e));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw RmFailure.unreachable(rms.get(index), "interrupted");
      }
      current = index;
      if (response.statusCode() >= 400) {
        throw RmFailure.error(RmErrors.describe(response.statusCode(), response.body()));
      }
      return new RmResponse(response.statusCode(), uri, response.body());
    }
    throw RmFailure.unreachable(String.join(", ", rms), reason(lastRefusal));
  }

  private HttpRequest request(String method, String uri, String body) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(uri))
        .timeout(context.requestTimeout())
        .header("Accept", "application/json");
    if (body == null) return b.method(method, HttpRequest.BodyPublishers.noBody()).build();
    return b.header("Content-Type", "application/json")
        .method(method, HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
        .build();
  }

  /** The JDK's HttpClient leaves connect failures without messages; name the usual causes. */
  static String reason(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof UnresolvedAddressException || t instanceof UnknownHostException) return "unknown host";
      if (t instanceof HttpConnectTimeoutException) return "connection timed out";
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t.getMessage() != null && !t.getMessage().isBlank()) return t.getMessage();
    }
    if (e instanceof ConnectException) return "connection refused";
    return e == null ? "unknown error" : e.getClass().getSimpleName();
  }

  static String queryString(Map<String, String> query) {
    if (query.isEmpty()) return "";
    return query.entrySet().stream()
        .map(e -> encode(e.getKey()) + "=" + encode(e.getValue()))
        .collect(Collectors.joining("&", "?", ""));
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  private static String toJson(JsonNode body) {
    try {
      return WireJson.mapper().writeValueAsString(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("A JSON tree always serializes", e);
    }
  }
}
