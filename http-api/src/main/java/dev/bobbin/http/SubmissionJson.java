package dev.bobbin.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.core.base.Rejection;
import dev.bobbin.core.app.ApplicationAccessType;
import dev.bobbin.core.app.Submission;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads YARN's {@code ApplicationSubmissionContextInfo} JSON. Lists and maps accept the shapes
 * Hadoop's Jersey emits and accepts: a single value or an array, and {@code {"entry":[...]}} maps.
 */
final class SubmissionJson {
  private SubmissionJson() {}

  static Submission parse(JsonNode n, String user) {
    if (n.path("unmanaged-AM").asBoolean(false)) {
      throw Rejection.badRequest("Unmanaged AMs are not supported");
    }
    JsonNode spec = n.path("am-container-spec");
    List<String> commands = new ArrayList<>();
    JsonNode cmds = spec.path("commands").path("command");
    for (JsonNode c : asList(cmds)) {
      if (!c.isTextual()) throw Rejection.badRequest("am-container-spec.commands.command must be strings");
      commands.add(c.asText());
    }
    Map<String, String> env = new LinkedHashMap<>();
    for (JsonNode e : asList(spec.path("environment").path("entry"))) {
      if (!e.path("key").isTextual()) throw Rejection.badRequest("environment entries need a string key");
      env.put(e.path("key").asText(), e.path("value").asText(""));
    }
    JsonNode res = n.path("resource");
    Resource resource = new Resource(intField(res, "memory", 0), (int) intField(res, "vCores", 0));
    List<String> tags = new ArrayList<>();
    JsonNode tagNode = n.path("application-tags");
    for (JsonNode t : asList(tagNode.isObject() ? tagNode.path("tag") : tagNode)) {
      for (String part : t.asText().split(",")) if (!part.isBlank()) tags.add(part.trim().toLowerCase());
    }
    return new Submission(
        text(n, "application-id"), text(n, "application-name"), user, text(n, "queue"),
        (int) intField(n, "priority", 0), text(n, "application-type"), tags, resource,
        new ContainerLaunchContext(commands, env), (int) intField(n, "max-app-attempts", 0), acls(spec));
  }

  /** {@code am-container-spec.application-acls}: {@code {"entry":[{"key":"VIEW_APP","value":"u1,u2 g1"}]}}. */
  private static Map<ApplicationAccessType, String> acls(JsonNode spec) {
    Map<ApplicationAccessType, String> acls = new EnumMap<>(ApplicationAccessType.class);
    for (JsonNode e : asList(spec.path("application-acls").path("entry"))) {
      String key = e.path("key").asText("");
      ApplicationAccessType type;
      try {
        type = ApplicationAccessType.valueOf(key);
      } catch (IllegalArgumentException ex) {
        throw Rejection.badRequest("am-container-spec.application-acls: unknown access type '" + key
            + "' (known: " + Arrays.toString(ApplicationAccessType.values()) + ")");
      }
      if (!e.path("value").isTextual()) {
        throw Rejection.badRequest("am-container-spec.application-acls: the " + key + " ACL must be a string");
      }
      acls.put(type, e.path("value").asText());
    }
    return acls;
  }

  private static List<JsonNode> asList(JsonNode node) {
    List<JsonNode> out = new ArrayList<>();
    if (node == null || node.isMissingNode() || node.isNull()) return out;
    if (node.isArray()) node.forEach(out::add);
    else out.add(node);
    return out;
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.path(field);
    if (v.isMissingNode() || v.isNull()) return null;
    if (!v.isValueNode()) throw Rejection.badRequest(field + " must be a string");
    return v.asText();
  }

  private static long intField(JsonNode n, String field, long dflt) {
    JsonNode v = n.path(field);
    if (v.isMissingNode() || v.isNull()) return dflt;
    if (v.isNumber()) return v.asLong();
    if (v.isTextual()) {
      try {
        return Long.parseLong(v.asText().trim());
      } catch (NumberFormatException e) {
        throw Rejection.badRequest(field + " must be a number, was '" + v.asText() + "'");
      }
    }
    throw Rejection.badRequest(field + " must be a number");
  }
}
