package dev.bobbin.protocol.client;

import java.io.IOException;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** A 2xx answer: its status, headers and body. */
public record Reply(String url, int status, HttpHeaders headers, byte[] body) {
  /**
   * The body decoded from JSON.
   *
   * @throws UnreadableReplyException when it is not a {@code type}
   */
  public <T> T as(Class<T> type) {
    try {
      return ClientJson.read(body, type);
    } catch (IOException | RuntimeException e) {
      throw new UnreadableReplyException(url, status, type, e, body);
    }
  }

  public String text() {
    return new String(body, StandardCharsets.UTF_8);
  }

  public Optional<String> header(String name) {
    return headers.firstValue(name);
  }
}
