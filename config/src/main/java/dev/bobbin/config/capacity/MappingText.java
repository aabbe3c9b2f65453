package dev.bobbin.config.capacity;

import dev.bobbin.config.SettingsException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Reads queue mappings in Hadoop's legacy syntax and checks their targets as Hadoop does when it
 * starts: a queue without variables must be an existing leaf (named by full path or by a short name
 * only one queue has); with variables, the part before the first variable must not be a leaf, and
 * must exist when a variable follows it (Bobbin creates no queues at run time).
 */
final class MappingText {
  private MappingText() {}

  /** @param applications true for the app-name rules ({@code name:queue}), else user and group rules */
  static List<QueueMapping> parse(HadoopProperties p, String hadoopKey, boolean applications) {
    String text = p.get(hadoopKey);
    if (text == null) return List.of();
    String key = p.where(hadoopKey);
    List<QueueMapping> out = new ArrayList<>();
    for (String raw : text.split(",")) {
      String rule = raw.trim();
      if (rule.isEmpty()) continue;
      List<String> parts = Arrays.stream(rule.split(":")).map(String::trim).filter(s -> !s.isEmpty()).toList();
      if (applications) {
        if (parts.size() != 2) throw illegal(key, rule, "an application mapping is name:queue");
        out.add(new QueueMapping(QueueMapping.Type.APPLICATION, parts.get(0), parts.get(1)));
        continue;
      }
      if (parts.size() != 3) throw illegal(key, rule, "a mapping is u:user:queue or g:group:queue");
      QueueMapping.Type type =
          switch (parts.get(0)) {
            case "u" -> QueueMapping.Type.USER;
            case "g" -> QueueMapping.Type.GROUP;
            default -> throw illegal(key, rule, "it starts with '" + parts.get(0) + "'; a mapping starts with u (user) or g (group)");
          };
      out.add(new QueueMapping(type, parts.get(1), parts.get(2)));
    }
    return out;
  }

  private static SettingsException illegal(String key, String rule, String why) {
    return new SettingsException(key, "illegal queue mapping '" + rule + "': " + why);
  }

  static void check(List<QueueMapping> mappings, QueueIndex queues, UnaryOperator<String> where) {
    for (QueueMapping m : mappings) {
      String key = where.apply(m.type() == QueueMapping.Type.APPLICATION ? CapacityKeys.APPLICATION_MAPPINGS : CapacityKeys.QUEUE_MAPPINGS);
      String problem = problem(m, queues);
      if (problem != null) throw new SettingsException(key, "queue mapping '" + m + "': " + problem);
    }
  }

  private static String problem(QueueMapping m, QueueIndex queues) {
    List<String> parts = m.queueParts();
    if (m.queue().startsWith(".") || m.queue().endsWith(".") || parts.stream().anyMatch(String::isEmpty)) {
      return "the queue path '" + m.queue() + "' has an empty part";
    }
    String first = parts.get(0);
    if (QueueMapping.VARIABLES.contains(first)) return null; // nothing fixed to check
    if (queues.isAmbiguous(first)) return "'" + first + "' names more than one queue; give its full path";
    CapacityQueue start = queues.find(first).orElse(null);
    if (start == null) return "there is no queue '" + first + "'";
    int firstVariable = 1;
    while (firstVariable < parts.size() && !QueueMapping.VARIABLES.contains(parts.get(firstVariable))) firstVariable++;
    String fixed = String.join(".", prefixed(start, parts.subList(1, firstVariable)));
    CapacityQueue target = queues.find(fixed).orElse(null);
    boolean hasVariable = firstVariable < parts.size();
    if (!hasVariable) {
      if (target == null) return "there is no queue " + fixed + ", and Bobbin creates no queues at run time";
      if (!target.isLeaf()) return target.path() + " is a parent queue; applications go to leaf queues";
      return null;
    }
    if (target == null) return "there is no queue " + fixed + " to hold the queues the variables name";
    if (target.isLeaf()) return target.path() + " is a leaf queue, which can have no queues under it";
    return null;
  }

  private static List<String> prefixed(CapacityQueue start, List<String> rest) {
    List<String> out = new ArrayList<>();
    out.add(start.path().full());
    out.addAll(rest);
    return out;
  }
}
