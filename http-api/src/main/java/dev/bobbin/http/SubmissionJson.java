package dev.bobbin.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.core.base.Rejection;
import dev.bobbin.core.app.ApplicationAccessType;
import dev.bobbin.core.app.Submission;
import dev.bobbin.core.policy.ApplicationPriorities;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.Resource;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads YARN's {@code ApplicationSubmissionContextInfo} JSON. Lists and maps accept every shape
 * that writers of Hadoop's classes give them ({@link JaxbShapes}); a field Bobbin does not act on
 * is refused unless it asks for nothing ({@link SubmissionFields}).
 * Numbers must be whole and fit the type YARN gives the field (a number written as a string is read
 * as Hadoop's JSON provider reads it); objects must be objects. How long the strings may be is
 * {@link dev.bobbin.core.app.SubmissionRules}' to say.
 */
final class SubmissionJson {
  private SubmissionJson() {}

  /**
   * @param n the body: {@code ApplicationSubmissionContextInfo}, or the same under its XML root name
   *     {@code application-submission-context} (as Jettison's writer roots it)
   */
  static Submission parse(JsonNode n, String user) {
    n = SubmissionFields.unwrap(n);
    SubmissionFields.check(n);
    JsonNode spec = object(n, "am-container-spec");
    List<String> commands = new ArrayList<>();
    for (JsonNode c : JaxbShapes.list(spec.path("commands"), "command", "am-container-spec.commands")) {
      if (!c.isTextual()) throw Rejection.badRequest("am-container-spec.commands.command must be strings");
      commands.add(c.asText());
    }
    Map<String, String> env = new LinkedHashMap<>();
    for (var e : JaxbShapes.entries(spec.path("environment"), "am-container-spec.environment")) {
      JsonNode v = e.getValue();
      if (!v.isMissingNode() && !v.isNull() && !v.isValueNode()) {
        throw Rejection.badRequest("am-container-spec.environment[" + e.getKey() + "].value must be a string");
      }
      if (env.put(e.getKey(), v.isValueNode() && !v.isNull() ? v.asText() : "") != null) {
        throw Rejection.badRequest("am-container-spec.environment: the variable " + e.getKey() + " is given twice");
      }
    }
    JsonNode res = object(n, "resource");
    Resource resource = new Resource(number(res, "memory", Long.MIN_VALUE, Long.MAX_VALUE),
        (int) number(res, "vCores", Integer.MIN_VALUE, Integer.MAX_VALUE));
    SubmissionFields.checkResourceInformations(res.path("resourceInformations"), resource);
    List<String> tags = new ArrayList<>();
    for (JsonNode t : JaxbShapes.list(n.path("application-tags"), "tag", "application-tags")) {
      for (String part : t.asText().split(",")) if (!part.isBlank()) tags.add(part.trim().toLowerCase());
    }
    return new Submission(
        text(n, "application-id"), text(n, "application-name"), user, text(n, "queue"),
        n.hasNonNull("priority") ? (int) number(n, "priority", Integer.MIN_VALUE, Integer.MAX_VALUE)
            : ApplicationPriorities.NONE_ASKED, text(n, "application-type"), tags,
        resource, new ContainerLaunchContext(commands, env, LocalResourcesJson.parse(spec),
            ServiceDataJson.parse(spec)),
        (int) number(n, "max-app-attempts", Integer.MIN_VALUE, Integer.MAX_VALUE), acls(spec),
        bool(n, "keep-containers-across-application-attempts")).withUnmanagedAm(bool(n, "unmanaged-AM"));
  }

  /** The body of {@code PUT /apps/{id}/priority}: {@code {"priority":N}}, N a whole number from 0. */
  static int priority(JsonNode body) {
    if (!body.isObject() || !body.hasNonNull("priority")) {
      throw Rejection.badRequest("Target Priority cannot be null: the body must be {\"priority\":N}");
    }
    return (int) number(body, "priority", 0, Integer.MAX_VALUE);
  }

  /**
   * The submission with what long-running services set: {@code attempt-failures-validity-interval}
   * (ms, -1 when missing: every failure counts) and {@code application-timeouts}.
   */
  static Submission withLongRunningFields(JsonNode n, Submission parsed) {
    n = SubmissionFields.unwrap(n);
    long window = n.hasNonNull("attempt-failures-validity-interval")
        ? number(n, "attempt-failures-validity-interval", Long.MIN_VALUE, Long.MAX_VALUE) : -1;
    return parsed.withAttemptFailuresValidityInterval(window).withLifetime(AppTimeoutJson.lifetimeMs(n));
  }

  /** The body of {@code PUT /apps/{id}/queue}: {@code {"queue":"name"}}, a queue's path or name. */
  static String queue(JsonNode body) {
    JsonNode q = body.path("queue");
    if (!body.isObject() || !q.isTextual() || q.asText().isBlank()) {
      throw Rejection.badRequest("Target queue cannot be empty: the body must be {\"queue\":\"name\"}");
    }
    return q.asText().strip();
  }

  /** {@code am-container-spec.application-acls}: {@code {"entry":[{"key":"VIEW_APP","value":"u1,u2 g1"}]}}. */
  private static Map<ApplicationAccessType, String> acls(JsonNode spec) {
    Map<ApplicationAccessType, String> acls = new EnumMap<>(ApplicationAccessType.class);
    for (var e : JaxbShapes.entries(spec.path("application-acls"), "am-container-spec.application-acls")) {
      String key = e.getKey();
      ApplicationAccessType type;
      try {
        type = ApplicationAccessType.valueOf(key);
      } catch (IllegalArgumentException ex) {
        throw Rejection.badRequest("am-container-spec.application-acls: unknown access type '" + key
            + "' (known: " + Arrays.toString(ApplicationAccessType.values()) + ")");
      }
      if (!e.getValue().isTextual()) {
        throw Rejection.badRequest("am-container-spec.application-acls: the " + key + " ACL must be a string");
      }
      if (acls.put(type, e.getValue().asText()) != null) {
        throw Rejection.badRequest("am-container-spec.application-acls: the " + key + " ACL is given twice");
      }
    }
    return acls;
  }

  /** A Jersey list: absent, a single value, or an array. */
  static List<JsonNode> asList(JsonNode node) {
    List<JsonNode> out = new ArrayList<>();
    if (node == null || node.isMissingNode() || node.isNull()) return out;
    if (node.isArray()) node.forEach(out::add);
    else out.add(node);
    return out;
  }

  /** The field's object; a missing one (or Jettison's empty {@code ""}) reads as empty, anything but an object is refused. */
  static JsonNode object(JsonNode n, String field) {
    JsonNode v = n.path(field);
    if (v.isMissingNode() || v.isNull() || v.isObject()) return v;
    if (v.isTextual() && v.asText().isEmpty()) return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    throw Rejection.badRequest(field + " must be a JSON object, was " + v.getNodeType().name().toLowerCase());
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.path(field);
    if (v.isMissingNode() || v.isNull()) return null;
    if (v.isArray()) throw Rejection.badRequest(field + " is given more than once");
    if (!v.isValueNode()) throw Rejection.badRequest(field + " must be a string");
    return v.asText();
  }

  /** A JSON boolean, or the string {@code true}/{@code false} as Hadoop's JSON provider reads it; false when missing. */
  private static boolean bool(JsonNode n, String field) {
    JsonNode v = n.path(field);
    if (v.isMissingNode() || v.isNull()) return false;
    if (v.isBoolean()) return v.booleanValue();
    if (v.isTextual() && (v.asText().equalsIgnoreCase("true") || v.asText().equalsIgnoreCase("false"))) {
      return Boolean.parseBoolean(v.asText());
    }
    throw Rejection.badRequest(field + " must be true or false, was " + v);
  }

  /** A whole number within {@code [min, max]}; 0 when the field is missing. */
  private static long number(JsonNode n, String field, long min, long max) {
    JsonNode v = n.path(field);
    if (v.isMissingNode() || v.isNull()) return 0;
    BigInteger value;
    if (v.isIntegralNumber()) {
      value = v.bigIntegerValue();
    } else if (v.isNumber()) {
      throw Rejection.badRequest(field + " must be a whole number, was " + v.asText());
    } else if (v.isTextual()) {
      String digits = v.asText().trim();
      // A long has at most 19 digits: a longer string is no number the field can hold, whatever it is.
      if (digits.length() > 20) {
        throw Rejection.badRequest(field + " must be a number between " + min + " and " + max + ", was a string of "
            + digits.length() + " characters");
      }
      try {
        value = new BigInteger(digits);
      } catch (NumberFormatException e) {
        throw Rejection.badRequest(field + " must be a number, was '" + v.asText() + "'");
      }
    } else {
      throw Rejection.badRequest(field + " must be a number");
    }
    if (value.compareTo(BigInteger.valueOf(min)) < 0 || value.compareTo(BigInteger.valueOf(max)) > 0) {
      throw Rejection.badRequest(field + " must be between " + min + " and " + max + ", was " + value);
    }
    return value.longValue();
  }
}
