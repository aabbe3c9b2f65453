package dev.bobbin.am.shell;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.bobbin.protocol.LocalResource;
import dev.bobbin.protocol.WireJson;
import java.util.Map;

/**
 * The files and archives a distributed-shell application ships to its containers ({@code bobbin
 * submit --file/--archive}): the client puts them, as local resources by link name, in the AM's
 * environment, and the AM lists them in every container's launch context, as YARN's distributed
 * shell passes its script's location to its AM.
 */
public final class ShippedResources {
  public static final String ENV = "BOBBIN_SHELL_LOCAL_RESOURCES";
  private static final TypeReference<Map<String, LocalResource>> TYPE = new TypeReference<>() {};

  private ShippedResources() {}

  public static String encode(Map<String, LocalResource> resources) {
    try {
      return WireJson.mapper().writeValueAsString(resources);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** @throws IllegalArgumentException when the variable is set but not such a map */
  public static Map<String, LocalResource> fromEnvironment(Map<String, String> env) {
    String json = env.get(ENV);
    if (json == null || json.isBlank()) return Map.of();
    try {
      Map<String, LocalResource> parsed = WireJson.mapper().readValue(json, TYPE);
      return parsed == null ? Map.of() : Map.copyOf(parsed);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(ENV + " is not a map of local resources: " + e.getOriginalMessage());
    }
  }
}
