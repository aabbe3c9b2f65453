package dev.bobbin.config.capacity;

import dev.bobbin.config.QueuePath;

/** One queue's keys in the properties: their values, and the names to give them in errors. */
final class QueueSettings {
  private final HadoopProperties p;
  final QueuePath path;

  QueueSettings(HadoopProperties p, QueuePath path) {
    this.p = p;
    this.path = path;
  }

  /** The raw value, or null when not set; the key counts as read. */
  String text(QueueKey k) {
    return p.get(k.of(path.full()));
  }

  String text(String suffix) {
    return p.get(QueueKey.of(path.full(), suffix));
  }

  String where(QueueKey k) {
    return where(k.hadoop);
  }

  String where(String suffix) {
    return p.where(QueueKey.of(path.full(), suffix));
  }

  <T> T value(QueueKey k, T fallback, CapacityConfigReader.Parser<T> parser) {
    String text = text(k);
    return text == null ? fallback : parser.parse(where(k), text);
  }
}
