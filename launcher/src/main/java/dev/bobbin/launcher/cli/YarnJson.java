package dev.bobbin.launcher.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads YARN's Jersey JSON leniently: a collection may be missing, {@code null}, a single object
 * or an array, and a single entity may or may not be wrapped in its root key.
 */
final class YarnJson {
  private YarnJson() {}

  /** The elements of {@code {"<collection>":{"<element>":[...]}}}. */
  static List<JsonNode> elements(JsonNode root, String collection, String element) {
    JsonNode items = root.path(collection).path(element);
    List<JsonNode> out = new ArrayList<>();
    if (items.isArray()) {
      items.forEach(out::add);
    } else if (items.isObject()) {
      out.add(items);
    }
    return out;
  }

  /** The entity inside {@code {"<key>":{...}}}, or the root itself when not wrapped. */
  static JsonNode unwrap(JsonNode root, String key) {
    JsonNode inner = root.path(key);
    return inner.isObject() ? inner : root;
  }

  static String text(JsonNode node, String field, String dflt) {
    JsonNode v = node.path(field);
    return v.isValueNode() && !v.isNull() ? v.asText() : dflt;
  }

  /** The first of {@code fields} that is present, else {@code dflt}. */
  static String firstText(JsonNode node, String dflt, String... fields) {
    for (String field : fields) {
      String v = text(node, field, null);
      if (v != null && !v.isBlank()) return v;
    }
    return dflt;
  }

  static long number(JsonNode node, String field, long dflt) {
    JsonNode v = node.path(field);
    if (v.isNumber()) return v.asLong();
    if (v.isTextual()) {
      try {
        return Long.parseLong(v.asText().trim());
      } catch (NumberFormatException notNumber) {
        return dflt;
      }
    }
    return dflt;
  }

  static boolean has(JsonNode node, String field) {
    JsonNode v = node.path(field);
    return !v.isMissingNode() && !v.isNull();
  }
}
