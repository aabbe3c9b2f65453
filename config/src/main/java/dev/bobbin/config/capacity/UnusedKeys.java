package dev.bobbin.config.capacity;

import static dev.bobbin.config.capacity.CapacityKeys.PREEMPTION_PREFIX;
import static dev.bobbin.config.capacity.CapacityKeys.PREFIX;

import java.util.ArrayList;
import java.util.List;

/**
 * Names every scheduler key that was given but has no effect, with the reason: a Hadoop feature
 * Bobbin does not have yet, a setting of a queue that is not in the tree, or a key Hadoop does not
 * know either. Keys of yarn-site.xml outside the scheduler's are not the scheduler's business and
 * pass without a word.
 */
final class UnusedKeys {
  private static final String NOT_YET = "is not supported yet; it has no effect";
  private static final String RESERVATION_SYSTEM = "yarn.resourcemanager.reservation-system.";

  private UnusedKeys() {}

  static List<ConfigWarning> warnings(HadoopProperties p, QueueIndex queues) {
    List<ConfigWarning> out = new ArrayList<>();
    for (String key : p.unread()) {
      String reason = reason(key, p.get(key), queues);
      if (reason != null) out.add(new ConfigWarning(p.where(key), reason));
    }
    return out;
  }

  private static String reason(String key, String value, QueueIndex queues) {
    if (key.startsWith(RESERVATION_SYSTEM)) {
      String rest = key.substring("yarn.resourcemanager.".length());
      return CapacityKeys.asksForWhatBobbinDoes(rest, value) ? null : "the reservation system " + NOT_YET;
    }
    if (key.startsWith(PREEMPTION_PREFIX)) {
      String rest = key.substring(PREEMPTION_PREFIX.length());
      if (CapacityKeys.asksForWhatBobbinDoes(rest, value)) return null;
      return CapacityKeys.isUnsupportedPreemption(rest) ? NOT_YET : "is not a key Hadoop's capacity preemption knows; it has no effect";
    }
    if (!key.startsWith(PREFIX)) return null;
    String rest = key.substring(PREFIX.length());
    if (!rest.equals("root") && !rest.startsWith("root.")) {
      if (CapacityKeys.asksForWhatBobbinDoes(rest, value)) return null;
      return CapacityKeys.isUnsupportedGlobal(rest) ? NOT_YET : "is not a key Hadoop's capacity scheduler knows; it has no effect";
    }
    String queue = configuredQueueIn(rest, queues);
    if (queue != null) {
      String suffix = rest.substring(queue.length() + 1);
      if (CapacityKeys.asksForWhatBobbinDoes(suffix, value)) return null;
      String reason = queueSettingReason(queue, suffix);
      if (reason != null) return reason;
    }
    for (int dot = rest.indexOf('.'); dot > 0; dot = rest.indexOf('.', dot + 1)) {
      String path = rest.substring(0, dot);
      if (CapacityKeys.isQueueSetting(rest.substring(dot + 1)) && !queues.all().containsKey(path)) {
        return "is for queue " + path + ", which is not in the queue tree (no queues list names it); it has no effect";
      }
    }
    return "is not a key Hadoop's capacity scheduler knows; it has no effect";
  }

  /** The longest configured queue path the key starts with. */
  private static String configuredQueueIn(String rest, QueueIndex queues) {
    String best = null;
    for (String path : queues.all().keySet()) {
      if (rest.startsWith(path + ".") && (best == null || path.length() > best.length())) best = path;
    }
    return best;
  }

  private static String queueSettingReason(String queue, String suffix) {
    if (CapacityKeys.isReservationSetting(suffix)) {
      return "reservations are not supported yet" + (suffix.equals("reservable") ? "; " + queue + " runs as an ordinary queue" : "")
          + "; it has no effect";
    }
    if (CapacityKeys.isUnsupportedQueueSetting(suffix)) return NOT_YET;
    if (suffix.startsWith(QueueKey.USER_SETTINGS + ".")) {
      return "is not a user setting Hadoop knows (user-settings.<user>.weight is); it has no effect";
    }
    if (suffix.startsWith("ordering-policy.")) return "is not an ordering policy setting Bobbin knows; it has no effect";
    return null;
  }
}
