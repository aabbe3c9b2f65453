package dev.bobbin.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.core.app.AppReport;
import dev.bobbin.core.base.Rejection;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * YARN's application timeouts on the wire: the {@code application-timeouts} of a submission (seconds
 * per type, as {@code ApplicationSubmissionContext.setApplicationTimeouts}), the {@code AppTimeoutInfo}
 * of the report and of {@code /apps/{id}/timeout(s)}, and the body of {@code PUT /apps/{id}/timeout}.
 * LIFETIME is the only type, as in YARN.
 */
final class AppTimeoutJson {
  static final String LIFETIME = "LIFETIME";
  /** Hadoop's {@code Times.ISO8601_DATE_FORMAT}. */
  static final DateTimeFormatter ISO8601 = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");

  private AppTimeoutJson() {}

  /**
   * The submission's LIFETIME in ms, -1 without one. Read as Jersey renders a map:
   * {@code "application-timeouts":{"entry":[{"key":"LIFETIME","value":<seconds>}]}}.
   */
  static long lifetimeMs(JsonNode submission) {
    JsonNode t = submission.path("application-timeouts");
    if (t.isMissingNode() || t.isNull()) return -1;
    if (!t.isObject()) throw Rejection.badRequest("application-timeouts must be a JSON object {\"entry\":[...]}");
    long lifetime = -1;
    JsonNode entries = t.path("entry");
    for (JsonNode e : entries.isArray() ? entries : List.of(entries)) {
      if (e.isMissingNode()) continue;
      type(e.path("key").asText(""));
      JsonNode v = e.path("value");
      long seconds;
      if (v.canConvertToExactIntegral() && v.canConvertToLong()) {
        seconds = v.asLong();
      } else if (v.isTextual() && v.asText().trim().matches("-?\\d{1,18}")) {
        seconds = Long.parseLong(v.asText().trim());
      } else {
        throw Rejection.badRequest("Invalid application timeout, value=" + v + " for type=LIFETIME: a whole number "
            + "of seconds is needed");
      }
      if (seconds <= 0 || seconds > Long.MAX_VALUE / 1000) {
        throw Rejection.badRequest("Invalid application timeout, value=" + seconds + " for type=LIFETIME");
      }
      lifetime = seconds * 1000;
    }
    return lifetime;
  }

  /** The path's or body's timeout type, as YARN's {@code parseTimeoutType} reads it. */
  static String type(String given) {
    if (!LIFETIME.equalsIgnoreCase(given.trim())) {
      throw Rejection.badRequest("Invalid application-timeout type " + given.trim() + " specified. It should be one of "
          + List.of(LIFETIME));
    }
    return LIFETIME;
  }

  /** The body of {@code PUT /apps/{id}/timeout}: the new expiry, ms since the epoch. */
  static long expiryTime(JsonNode body) {
    JsonNode t = body.path("timeout");
    if (!t.path("type").isTextual() || !t.path("expiryTime").isTextual()) {
      throw Rejection.badRequest("Timeout type or ExpiryTime is null.");
    }
    type(t.path("type").asText());
    String expiry = t.path("expiryTime").asText();
    try {
      return ZonedDateTime.parse(expiry, ISO8601).toInstant().toEpochMilli();
    } catch (DateTimeParseException e) {
      throw Rejection.badRequest("Expire time is not in ISO8601 format. ISO8601 supported format is "
          + "yyyy-MM-dd'T'HH:mm:ss.SSSZ. Configured timeout value is " + expiry);
    }
  }

  /** YARN's {@code AppTimeoutInfo} for the LIFETIME: UNLIMITED and -1 without one, 0 s left once ended or past. */
  static Map<String, Object> lifetime(AppReport r, long now) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("type", LIFETIME);
    long deadline = r.lifetimeDeadline();
    if (deadline <= 0) {
      m.put("expiryTime", "UNLIMITED");
      m.put("remainingTimeInSeconds", -1);
    } else {
      m.put("expiryTime", ISO8601.format(Instant.ofEpochMilli(deadline).atZone(ZoneId.systemDefault())));
      m.put("remainingTimeInSeconds", r.state().isFinal() ? 0 : Math.max(0, (deadline - now) / 1000));
    }
    return m;
  }

  /** The report's {@code timeouts}, also {@code GET /apps/{id}/timeouts}' inner object. */
  static Map<String, Object> timeouts(AppReport r, long now) {
    List<Object> list = new ArrayList<>(List.of(lifetime(r, now)));
    return Map.of("timeout", list);
  }
}
