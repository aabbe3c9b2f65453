package dev.bobbin.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.core.base.Rejection;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads {@code am-container-spec.service-data}: {@code {"entry":[{"key":SERVICE,"value":BASE64}]}}
 * (or any map shape {@link JaxbShapes} reads),
 * the data the AM's NodeManager gives each named auxiliary service. Values are base64, URL-safe as
 * YARN writes them or plain; they are kept in plain base64.
 */
final class ServiceDataJson {
  private static final String FIELD = "am-container-spec.service-data";

  private ServiceDataJson() {}

  static Map<String, String> parse(JsonNode spec) {
    Map<String, String> out = new LinkedHashMap<>();
    for (var e : JaxbShapes.entries(spec.path("service-data"), FIELD)) {
      String name = e.getKey();
      if (name.isBlank()) {
        throw Rejection.badRequest(FIELD + ".entry.key must be a non-empty string (an auxiliary service's name)");
      }
      if (out.containsKey(name)) throw Rejection.badRequest(FIELD + ": the service '" + name + "' appears twice");
      JsonNode value = e.getValue();
      if (!value.isTextual()) throw Rejection.badRequest(FIELD + "[" + name + "].value must be a base64 string");
      out.put(name, Base64.getEncoder().encodeToString(decode(name, value.asText())));
    }
    return out;
  }

  private static byte[] decode(String name, String text) {
    String trimmed = text.strip();
    try {
      return trimmed.indexOf('-') >= 0 || trimmed.indexOf('_') >= 0
          ? Base64.getUrlDecoder().decode(trimmed) : Base64.getDecoder().decode(trimmed);
    } catch (IllegalArgumentException e) {
      throw Rejection.badRequest(FIELD + "[" + name + "].value is not base64: " + e.getMessage());
    }
  }
}
