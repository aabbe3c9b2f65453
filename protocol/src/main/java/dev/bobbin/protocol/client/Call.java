package dev.bobbin.protocol.client;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One HTTP call, before a {@link BobbinHttp} transport adds credentials and sends it.
 *
 * @param url absolute; checked when the call is sent, so that a bad address fails the call
 * @param body encoded as JSON, or null for none
 * @param timeout for this call, or null for the transport's
 */
public record Call(String method, String url, Object body, MediaType accept, Duration timeout) {
  public static Call get(String baseUrl, String path) {
    return new Call("GET", url(baseUrl, path), null, MediaType.JSON, null);
  }

  public static Call post(String baseUrl, String path, Object body) {
    return new Call("POST", url(baseUrl, path), body, MediaType.JSON, null);
  }

  public static Call put(String baseUrl, String path, Object body) {
    return new Call("PUT", url(baseUrl, path), body, MediaType.JSON, null);
  }

  /** The same call with these query parameters added (encoded here); empty values are left out. */
  public Call withQuery(Map<String, String> query) {
    String encoded = query.entrySet().stream()
        .filter(e -> e.getValue() != null && !e.getValue().isEmpty())
        .map(e -> encode(e.getKey()) + "=" + encode(e.getValue()))
        .collect(Collectors.joining("&"));
    if (encoded.isEmpty()) return this;
    return new Call(method, url + (url.contains("?") ? "&" : "?") + encoded, body, accept, timeout);
  }

  public Call withTimeout(Duration timeout) {
    return new Call(method, url, body, accept, timeout);
  }

  public Call accepting(MediaType type) {
    return new Call(method, url, body, type, timeout);
  }

  /**
   * {@code baseUrl} (a URL, or {@code host:port} as NodeManagers report their HTTP address, which
   * means {@code http://host:port}) without its trailing slash, followed by {@code path}.
   */
  public static String url(String baseUrl, String path) {
    String base = baseUrl.strip();
    if (base.endsWith("/")) base = base.substring(0, base.length() - 1);
    if (!base.startsWith("http://") && !base.startsWith("https://")) base = "http://" + base;
    return base + path;
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }
}
