package dev.bobbin.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.core.base.Rejection;
import dev.bobbin.protocol.Resource;
import java.util.Iterator;
import java.util.Set;

/**
 * Every field of Hadoop's {@code ApplicationSubmissionContextInfo} and {@code
 * ContainerLaunchContextInfo}, each either read by {@link SubmissionJson} or refused here: a field
 * Bobbin does not act on (node labels, reservations, per-application log aggregation patterns,
 * credentials) is accepted only while it asks for nothing, as Hadoop's
 * writers send it by default ({@code ""}, an empty map); a field no Hadoop class has is refused by
 * name. Nothing a client asks for is dropped in silence.
 */
final class SubmissionFields {
  static final String ROOT = "application-submission-context";
  private static final Set<String> READ = Set.of("application-id", "application-name", "queue", "priority",
      "am-container-spec", "unmanaged-AM", "max-app-attempts", "resource", "application-type",
      "keep-containers-across-application-attempts", "application-tags", "attempt-failures-validity-interval",
      "application-timeouts", "cancel-tokens-when-complete");
  private static final Set<String> UNSUPPORTED = Set.of("app-node-label-expression",
      "am-container-node-label-expression", "log-aggregation-context", "reservation-id");
  private static final Set<String> SPEC_READ = Set.of("commands", "environment", "local-resources",
      "application-acls", "service-data");
  private static final Set<String> SPEC_UNSUPPORTED = Set.of("credentials");
  private static final Set<String> RESOURCE = Set.of("memory", "vCores", "resourceInformations");

  private SubmissionFields() {}

  /** The context itself when it comes under its XML root name, as Jettison's writer roots it. */
  static JsonNode unwrap(JsonNode n) {
    return n.size() == 1 && n.get(ROOT) != null && n.get(ROOT).isObject() ? n.get(ROOT) : n;
  }

  static void check(JsonNode n) {
    known(n, "", READ, UNSUPPORTED);
    // Bobbin holds no delegation tokens, so whether they would be cancelled at the end changes nothing.
    JsonNode cancel = n.path("cancel-tokens-when-complete");
    if (!cancel.isMissingNode() && !cancel.isNull() && !cancel.isBoolean()
        && !cancel.asText().equalsIgnoreCase("true") && !cancel.asText().equalsIgnoreCase("false")) {
      throw Rejection.badRequest("cancel-tokens-when-complete must be true or false, was " + cancel);
    }
    unsupported(n, "app-node-label-expression", "Bobbin has no node labels");
    unsupported(n, "am-container-node-label-expression", "Bobbin has no node labels");
    unsupported(n, "reservation-id", "Bobbin has no reservation system");
    unsupported(n, "log-aggregation-context", "Bobbin aggregates every log file of a container "
        + "(bobbin.nm.log-aggregation.enabled); per-application patterns and policies are not supported");
    JsonNode spec = n.path("am-container-spec");
    if (spec.isObject()) {
      known(spec, "am-container-spec.", SPEC_READ, SPEC_UNSUPPORTED);
      unsupported(spec, "credentials", "Bobbin's NodeManagers take no tokens or secrets for containers",
          "am-container-spec.");
    }
    JsonNode res = n.path("resource");
    if (res.isObject()) known(res, "resource.", RESOURCE, Set.of());
  }

  /**
   * Hadoop's {@code ResourceInfo} may also list its resources by name: only memory and vCores, with
   * the values given as {@code memory} and {@code vCores}, since Bobbin schedules nothing else.
   */
  static void checkResourceInformations(JsonNode infos, Resource asked) {
    if (JaxbShapes.isEmpty(infos)) return;
    if (!infos.isObject() || infos.size() != 1 || !infos.has("resourceInformation")) {
      throw Rejection.badRequest("resource.resourceInformations must be {\"resourceInformation\":[..]}");
    }
    for (JsonNode i : SubmissionJson.asList(infos.get("resourceInformation"))) {
      if (!i.isObject()) throw Rejection.badRequest("resource.resourceInformations entries must be objects");
      String name = i.path("name").asText("");
      long value = i.path("value").asLong(Long.MIN_VALUE);
      String units = i.path("units").asText("");
      boolean same = switch (name) {
        case "memory-mb" -> value == asked.memory() && (units.isEmpty() || units.equals("Mi"));
        case "vcores" -> value == asked.vCores() && units.isEmpty();
        default -> throw Rejection.badRequest("resource.resourceInformations: Bobbin schedules memory and "
            + "vCores only, not '" + name + "'");
      };
      if (!same) {
        throw Rejection.badRequest("resource.resourceInformations: " + name + " " + value + units
            + " differs from resource.memory / resource.vCores; give the resource there");
      }
    }
  }

  private static void known(JsonNode n, String prefix, Set<String> read, Set<String> unsupported) {
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!read.contains(f) && !unsupported.contains(f)) {
        throw Rejection.badRequest("Unknown field " + prefix + f + " in the submission: Bobbin reads the fields of "
            + "YARN's ApplicationSubmissionContextInfo");
      }
    }
  }

  private static void unsupported(JsonNode n, String field, String why) {
    unsupported(n, field, why, "");
  }

  private static void unsupported(JsonNode n, String field, String why, String prefix) {
    if (!JaxbShapes.isEmpty(n.get(field))) {
      throw Rejection.badRequest(prefix + field + " is not supported: " + why + "; it must be empty or left out");
    }
  }
}
