package dev.bobbin.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.core.base.Rejection;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The shapes that writers of Hadoop's JAXB-annotated classes give a wrapped list and a map, read
 * as one. A list ({@code commands} of {@code command}): a single value, an array, the wrapper
 * {@code {"command":[..]}}, or an array of wrappers (Jersey's natural notation). A map: {@code
 * {"entry":[{"key":..,"value":..}]}}, a single {@code {"entry":{..}}}, a repeated {@code entry} key
 * (read as an array by {@link JsonTree}), or a plain object of names to values (Jackson's writer).
 * An empty one may also come as {@code ""} or {@code null} (Jettison's and Jersey's mapped writers).
 */
final class JaxbShapes {
  private JaxbShapes() {}

  /** Whether the node asks for nothing: missing, null, {@code ""}, or an empty object or array. */
  static boolean isEmpty(JsonNode n) {
    if (n == null || n.isMissingNode() || n.isNull()) return true;
    if (n.isTextual()) return n.asText().isEmpty();
    if (n.isContainerNode()) {
      for (JsonNode child : n) if (!isEmpty(child)) return false;
      return true;
    }
    return false;
  }

  /** The values of a wrapped list whose elements are named {@code element}, each a JSON value. */
  static List<JsonNode> list(JsonNode n, String element, String field) {
    List<JsonNode> out = new ArrayList<>();
    collect(n, element, field, out);
    return out;
  }

  private static void collect(JsonNode n, String element, String field, List<JsonNode> out) {
    if (n == null || n.isMissingNode() || n.isNull()) return;
    if (n.isValueNode()) {
      out.add(n);
    } else if (n.isArray()) {
      for (JsonNode e : n) collect(e, element, field, out);
    } else if (n.size() == 1 && n.has(element)) {
      collect(n.get(element), element, field, out);
    } else if (n.size() > 0) {
      throw Rejection.badRequest(field + " must be a list of " + element + " values, as {\"" + element
          + "\":[..]} or [..]; it had the fields " + names(n));
    }
  }

  /** The entries of a map, in the order written; a key is any JSON value, read as text. */
  static List<Map.Entry<String, JsonNode>> entries(JsonNode n, String field) {
    List<Map.Entry<String, JsonNode>> out = new ArrayList<>();
    if (isEmpty(n)) return out;
    if (n.isArray()) {
      for (JsonNode e : n) out.addAll(entries(e, field));
      return out;
    }
    if (!n.isObject()) throw Rejection.badRequest(field + " must be a map {\"entry\":[{\"key\":..,\"value\":..}]}");
    if (isEntryForm(n)) {
      for (JsonNode e : SubmissionJson.asList(n.get("entry"))) {
        JsonNode key = e.get("key");
        if (!key.isValueNode() || key.isNull()) throw Rejection.badRequest(field + ".entry.key must be a string");
        out.add(new AbstractMap.SimpleImmutableEntry<>(key.asText(), e.path("value")));
      }
      return out;
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (e.getValue().isArray()) {
        throw Rejection.badRequest(field + ": the key '" + e.getKey() + "' is given more than once");
      }
      out.add(new AbstractMap.SimpleImmutableEntry<>(e.getKey(), e.getValue()));
    }
    return out;
  }

  /** {@code {"entry": ..}} whose every entry is an object with a key; anything else is a plain map. */
  private static boolean isEntryForm(JsonNode n) {
    if (n.size() != 1 || !n.has("entry")) return false;
    for (JsonNode e : SubmissionJson.asList(n.get("entry"))) {
      if (!e.isObject() || !e.has("key")) return false;
    }
    return true;
  }

  static String names(JsonNode n) {
    List<String> names = new ArrayList<>();
    n.fieldNames().forEachRemaining(names::add);
    return names.toString();
  }
}
