package dev.bobbin.config.fair;

import dev.bobbin.config.SettingsException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** A queue being read from a file, with the keys its errors are reported under. */
final class QueueBuilder {
  final String path;
  /** Key of the queue itself, e.g. "allocations/queue[root.a]". */
  final String key;
  /** Key prefix for elements nested in this queue ("allocations" for the implicit root). */
  final String nestedKey;
  private final Function<QueueField, String> fieldKeys;
  private final Map<QueueField, Object> values = new EnumMap<>(QueueField.class);
  final List<QueueBuilder> children = new ArrayList<>();
  QueueType declaredType;
  String declaredTypeKey;

  QueueBuilder(String path, String key, String nestedKey, Function<QueueField, String> fieldKeys) {
    this.path = path;
    this.key = key;
    this.nestedKey = nestedKey;
    this.fieldKeys = fieldKeys;
  }

  String key(QueueField f) {
    return fieldKeys.apply(f);
  }

  void set(QueueField f, Object value) {
    if (values.putIfAbsent(f, value) != null) {
      throw new SettingsException(key(f), "duplicate element <" + f.xml + ">");
    }
  }

  Object get(QueueField f) {
    return values.get(f);
  }

  /** Parents are queues with children, queues declared type parent, and root. */
  QueueType type() {
    boolean root = path.equals(QueueNames.ROOT);
    if (declaredType == QueueType.LEAF && (root || !children.isEmpty())) {
      throw new SettingsException(
          declaredTypeKey, root ? "root is always a parent queue" : path + " is declared a leaf but has child queues");
    }
    return root || !children.isEmpty() || declaredType == QueueType.PARENT ? QueueType.PARENT : QueueType.LEAF;
  }

  FairQueueConfig build() {
    Boolean allow = (Boolean) get(QueueField.ALLOW_PREEMPTION_FROM);
    Double weight = (Double) get(QueueField.WEIGHT);
    return new FairQueueConfig(
        path,
        type(),
        weight == null ? FairQueueConfig.DEFAULT_WEIGHT : weight,
        (ResourceSpec) get(QueueField.MIN_RESOURCES),
        (ResourceSpec) get(QueueField.MAX_RESOURCES),
        (ResourceSpec) get(QueueField.MAX_CHILD_RESOURCES),
        (ResourceSpec) get(QueueField.MAX_CONTAINER_ALLOCATION),
        (Integer) get(QueueField.MAX_RUNNING_APPS),
        (Double) get(QueueField.MAX_AM_SHARE),
        (QueuePolicy) get(QueueField.SCHEDULING_POLICY),
        (Duration) get(QueueField.MIN_SHARE_PREEMPTION_TIMEOUT),
        (Duration) get(QueueField.FAIR_SHARE_PREEMPTION_TIMEOUT),
        (Double) get(QueueField.FAIR_SHARE_PREEMPTION_THRESHOLD),
        allow == null || allow,
        (String) get(QueueField.ACL_SUBMIT_APPS),
        (String) get(QueueField.ACL_ADMINISTER_APPS),
        children.stream().map(QueueBuilder::build).toList());
  }
}
