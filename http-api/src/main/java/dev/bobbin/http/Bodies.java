package dev.bobbin.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.core.base.Rejection;
import dev.bobbin.http.server.RequestJson;

/**
 * Request bodies, read strictly ({@link RequestJson}): malformed JSON, a wrong shape, a number that
 * does not fit its field, or nesting beyond bounds becomes a 400 that names the problem.
 */
final class Bodies {
  private Bodies() {}

  static <T> T read(String body, Class<T> type) {
    if (body == null || body.isBlank()) throw Rejection.badRequest("The request body is empty");
    try {
      return notNull(RequestJson.reader(type).readValue(body));
    } catch (JsonProcessingException e) {
      throw malformed(e);
    }
  }

  /** The same from the body's bytes (JSON is UTF-8), without decoding them into a String first. */
  static <T> T read(byte[] body, Class<T> type) {
    if (isBlank(body)) throw Rejection.badRequest("The request body is empty");
    try {
      return notNull(RequestJson.reader(type).readValue(body));
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

  /** A JSON object, every value of a repeated key kept ({@link JsonTree}). */
  static JsonNode tree(String body) {
    if (body == null || body.isBlank()) throw Rejection.badRequest("The request body is empty");
    JsonNode node;
    try {
      node = notNull(JsonTree.read(body));
    } catch (JsonProcessingException e) {
      throw malformed(e);
    } catch (java.io.IOException e) {
      throw Rejection.badRequest("Unreadable request body: " + e.getMessage());
    }
    if (node.isNull()) throw Rejection.badRequest("The request body is null");
    if (!node.isObject()) throw Rejection.badRequest("The request body must be a JSON object");
    return node;
  }
}
