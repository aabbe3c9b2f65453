package dev.bobbin.auth;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hadoop's {@code RMAuditLogger} lines: one per operation that changes or reveals protected state,
 * to the logger {@value #LOGGER} alone so that it can go to a file of its own. Tab-separated
 * {@code KEY=value} fields: {@code USER IP OPERATION TARGET RESULT}, then {@code DESCRIPTION} on a
 * failure, then {@code APPID} and {@code QUEUENAME} where they apply. Values lose tabs and line
 * breaks, so that a caller cannot forge a line.
 */
public final class AuditLog {
  public static final String LOGGER = "bobbin.audit";
  private static final Logger log = LoggerFactory.getLogger(LOGGER);

  private AuditLog() {}

  /** An operation by {@code user} from {@code ip} on {@code target} (the service that carried it out). */
  public static Entry of(String user, String ip, String operation, String target) {
    return new Entry(user, ip, operation, target);
  }

  /** One line being made; {@link #success()} or {@link #failure} writes it. */
  public static final class Entry {
    private final List<String> head = new ArrayList<>();
    private final List<String> tail = new ArrayList<>();

    private Entry(String user, String ip, String operation, String target) {
      field(head, "USER", user);
      field(head, "IP", ip);
      field(head, "OPERATION", operation);
      field(head, "TARGET", target);
    }

    public Entry app(String appId) {
      if (appId != null && !appId.isEmpty()) field(tail, "APPID", appId);
      return this;
    }

    public Entry queue(String queue) {
      if (queue != null && !queue.isEmpty()) field(tail, "QUEUENAME", queue);
      return this;
    }

    public void success() {
      if (!log.isInfoEnabled()) return;
      List<String> line = new ArrayList<>(head);
      field(line, "RESULT", "SUCCESS");
      line.addAll(tail);
      log.info("{}", String.join("\t", line));
    }

    public void failure(String description) {
      if (!log.isWarnEnabled()) return;
      List<String> line = new ArrayList<>(head);
      field(line, "RESULT", "FAILURE");
      field(line, "DESCRIPTION", description);
      line.addAll(tail);
      log.warn("{}", String.join("\t", line));
    }

    private static void field(List<String> line, String key, String value) {
      line.add(key + "=" + (value == null ? "" : value.replaceAll("[\\t\\r\\n\\p{Cntrl}]", " ")));
    }
  }
}
