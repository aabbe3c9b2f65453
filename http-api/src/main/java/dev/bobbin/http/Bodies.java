package dev.bobbin.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.bobbin.core.base.Rejection;
import dev.bobbin.protocol.WireJson;

/** Request bodies: malformed JSON or a wrong shape becomes a 400 that names the problem. */
final class Bodies {
  /**
   * A reader per type, made once: the mapper's {@code readValue} resolves the type and sets up its
   * configuration again on every call, a measurable share of a heartbeat's CPU.
   */
  private static final ClassValue<ObjectReader> READERS = new ClassValue<>() {
    @Override
    protected ObjectReader computeValue(Class<?> type) {
      return WireJson.mapper().readerFor(type);
    }
  };

  private Bodies() {}

  static <T> T read(String body, Class<T> type) {
    if (body == null || body.isBlank()) throw Rejection.badRequest("The request body is empty");
    try {
      return notNull(READERS.get(type).readValue(body));
    } catch (JsonProcessingException e) {
      throw malformed(e);
    }
  }

  /** The same from the body's bytes (JSON is UTF-8), without decoding them into a String first. */
  static <T> T read(byte[] body, Class<T> type) {
    if (isBlank(body)) throw Rejection.badRequest("The request body is empty");
    try {
      return notNull(READERS.get(type).readValue(body));
    } catch (JsonProcessingException e) {
      throw malformed(e);
    } catch (java.io.IOException e) {
      throw Rejection.badRequest("Unreadable request body: " + e.getMessage());
    }
  }

  private static <T> T notNull(T value) {
    if (value == null) throw Rejection.badRequest("The request body is null");
    return value;
  }

  private static Rejection malformed(JsonProcessingException e) {
    return Rejection.badRequest("Malformed request body: " + e.getOriginalMessage());
  }

  private static boolean isBlank(byte[] body) {
    if (body == null) return true;
    for (byte b : body) {
      if (b != ' ' && b != '\t' && b != '\n' && b != '\r') return false;
    }
    return true;
  }

  static JsonNode tree(String body) {
    JsonNode node = read(body, JsonNode.class);
    if (!node.isObject()) throw Rejection.badRequest("The request body must be a JSON object");
    return node;
  }
}
