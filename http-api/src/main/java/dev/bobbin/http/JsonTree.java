package dev.bobbin.http;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bobbin.http.server.RequestJson;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;

/**
 * Reads a JSON body into a tree, keeping every value of a key an object repeats: Hadoop's own JSON
 * writer (Jersey's natural notation) writes a map as {@code {"entry":{..},"entry":{..}}}, and a
 * tree model that kept only the last would lose all but one entry. A repeated key reads as the
 * array of its values, in order, so a field that must be single is refused, never half-read.
 * Parsed with the strict request reader's limits ({@link RequestJson}).
 */
final class JsonTree {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private JsonTree() {}

  static JsonNode read(String body) throws IOException {
    try (JsonParser p = RequestJson.mapper().getFactory().createParser(body)) {
      JsonToken first = p.nextToken();
      if (first == null) return null;
      JsonNode value = value(p, first);
      if (p.nextToken() != null) {
        throw new JsonParseException(p, "Unexpected content after the JSON value");
      }
      return value;
    }
  }

  private static JsonNode value(JsonParser p, JsonToken t) throws IOException {
    return switch (t) {
      case START_OBJECT -> object(p);
      case START_ARRAY -> {
        ArrayNode a = NODES.arrayNode();
        for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) a.add(value(p, e));
        yield a;
      }
      case VALUE_STRING -> NODES.textNode(p.getText());
      case VALUE_NUMBER_INT -> switch (p.getNumberType()) {
        case INT -> NODES.numberNode(p.getIntValue());
        case LONG -> NODES.numberNode(p.getLongValue());
        default -> NODES.numberNode(p.getBigIntegerValue());
      };
      case VALUE_NUMBER_FLOAT -> NODES.numberNode(p.getDecimalValue());
      case VALUE_TRUE -> NODES.booleanNode(true);
      case VALUE_FALSE -> NODES.booleanNode(false);
      case VALUE_NULL -> NODES.nullNode();
      default -> throw new JsonParseException(p, "Unexpected token " + t);
    };
  }

  private static ObjectNode object(JsonParser p) throws IOException {
    ObjectNode o = NODES.objectNode();
    Set<String> repeated = new HashSet<>();
    for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
      String name = p.currentName();
      JsonNode v = value(p, p.nextToken());
      JsonNode earlier = o.get(name);
      if (earlier == null) {
        o.set(name, v);
      } else if (repeated.add(name)) {
        o.set(name, NODES.arrayNode().add(earlier).add(v));
      } else {
        ((ArrayNode) earlier).add(v);
      }
    }
    return o;
  }
}
