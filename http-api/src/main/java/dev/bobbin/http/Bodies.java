package dev.bobbin.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.core.Rejection;
import dev.bobbin.protocol.WireJson;

/** Request bodies: malformed JSON or a wrong shape becomes a 400 that names the problem. */
final class Bodies {
  private Bodies() {}

  static <T> T read(String body, Class<T> type) {
    if (body == null || body.isBlank()) throw Rejection.badRequest("The request body is empty");
    try {
      T value = WireJson.mapper().readValue(body, type);
      if (value == null) throw Rejection.badRequest("The request body is null");
      return value;
    } catch (JsonProcessingException e) {
      throw Rejection.badRequest("Malformed request body: " + e.getOriginalMessage());
    }
  }

  static JsonNode tree(String body) {
    JsonNode node = read(body, JsonNode.class);
    if (!node.isObject()) throw Rejection.badRequest("The request body must be a JSON object");
    return node;
  }
}
