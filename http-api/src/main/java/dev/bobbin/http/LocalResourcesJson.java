package dev.bobbin.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.core.base.Rejection;
import dev.bobbin.protocol.LocalResource;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads {@code am-container-spec.local-resources}: {@code {"entry":[{"key":NAME,"value":{"resource":
 * URL,"type":..,"visibility":..,"size":..,"timestamp":..}}]}}. Each link name becomes a file in the
 * container's working directory, so it must be a plain name; the source must be a {@code file},
 * {@code http} or {@code https} URL; size and timestamp must be above 0, as YARN's
 * {@code LocalResourceInfo} requires.
 */
final class LocalResourcesJson {
  private static final String FIELD = "am-container-spec.local-resources";
  private static final Set<String> SCHEMES = Set.of("file", "http", "https");

  private LocalResourcesJson() {}

  static Map<String, LocalResource> parse(JsonNode spec) {
    JsonNode node = spec.path("local-resources");
    if (JaxbShapes.isEmpty(node)) return Map.of();
    if (!node.isObject() && !node.isArray()) throw Rejection.badRequest(FIELD + " must be a JSON object");
    Map<String, LocalResource> out = new LinkedHashMap<>();
    for (var e : JaxbShapes.entries(node, FIELD)) {
      String name = linkName(com.fasterxml.jackson.databind.node.TextNode.valueOf(e.getKey()));
      if (out.containsKey(name)) throw Rejection.badRequest(FIELD + ": the link name '" + name + "' appears twice");
      out.put(name, resource(name, e.getValue()));
    }
    return out;
  }

  private static String linkName(JsonNode key) {
    if (!key.isTextual() || key.asText().isBlank()) {
      throw Rejection.badRequest(FIELD + ".entry.key must be a non-empty string (the link name)");
    }
    String name = key.asText();
    if (name.contains("/") || name.contains("\0") || name.equals(".") || name.equals("..")) {
      throw Rejection.badRequest(FIELD + ".entry.key '" + name
          + "' must be a plain file name: it is linked into the container's working directory");
    }
    return name;
  }

  private static LocalResource resource(String name, JsonNode v) {
    String at = FIELD + "[" + name + "]";
    if (!v.isObject()) throw Rejection.badRequest(at + ".value must be a JSON object");
    JsonNode url = v.path("resource");
    if (!url.isTextual() || url.asText().isBlank()) throw Rejection.badRequest(at + ".resource must be a URL string");
    URI uri;
    try {
      uri = new URI(url.asText());
    } catch (URISyntaxException e) {
      throw Rejection.badRequest(at + ".resource is not a URL: " + e.getMessage());
    }
    if (uri.getScheme() == null || !SCHEMES.contains(uri.getScheme().toLowerCase())) {
      throw Rejection.badRequest(at + ".resource must be a file://, http:// or https:// URL, was '" + url.asText() + "'");
    }
    var type = constant(at + ".type", v.path("type"), LocalResource.Type.class);
    var visibility = constant(at + ".visibility", v.path("visibility"), LocalResource.Visibility.class);
    long size = positive(at + ".size", v.path("size"));
    long timestamp = positive(at + ".timestamp", v.path("timestamp"));
    JsonNode pattern = v.path("pattern");
    if (!pattern.isMissingNode() && !pattern.isNull() && !pattern.isTextual()) {
      throw Rejection.badRequest(at + ".pattern must be a string");
    }
    if (pattern.isTextual()) {
      try {
        Pattern.compile(pattern.asText());
      } catch (PatternSyntaxException e) {
        throw Rejection.badRequest(at + ".pattern is not a regular expression: " + e.getDescription());
      }
    }
    return new LocalResource(uri.toString(), type, visibility, size, timestamp,
        pattern.isTextual() ? pattern.asText() : null);
  }

  private static <E extends Enum<E>> E constant(String field, JsonNode v, Class<E> type) {
    if (!v.isTextual()) {
      throw Rejection.badRequest(field + " must be one of " + Arrays.toString(type.getEnumConstants()));
    }
    try {
      return Enum.valueOf(type, v.asText().trim().toUpperCase());
    } catch (IllegalArgumentException e) {
      throw Rejection.badRequest(field + " must be one of " + Arrays.toString(type.getEnumConstants())
          + ", was '" + v.asText() + "'");
    }
  }

  private static long positive(String field, JsonNode v) {
    long value;
    if (v.isIntegralNumber() && v.canConvertToLong()) {
      value = v.longValue();
    } else if (v.isTextual()) {
      try {
        value = Long.parseLong(v.asText().trim());
      } catch (NumberFormatException e) {
        throw Rejection.badRequest(field + " must be a whole number, was '" + v.asText() + "'");
      }
    } else {
      throw Rejection.badRequest(field + " must be a whole number greater than 0");
    }
    if (value <= 0) throw Rejection.badRequest(field + " must be greater than 0, was " + value);
    return value;
  }
}
