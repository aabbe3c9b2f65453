package dev.bobbin.config.capacity;

import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Hadoop configuration properties by key, as the XML files or the HOCON section gave them, and
 * which of them the reader has looked at. Each value remembers where it was written so that an
 * error names what the user wrote: the Hadoop key, or the HOCON path it came from.
 */
final class HadoopProperties {
  /** A null value names where a key would be written, for errors about its absence. */
  record Property(String value, String where) {}

  private final Map<String, Property> properties;
  private final List<ConfigWarning> warnings;
  private final Set<String> read = new HashSet<>();

  /** @param warnings what reading the files found: properties set twice, final ones overridden */
  HadoopProperties(Map<String, Property> properties, List<ConfigWarning> warnings) {
    this.properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    this.warnings = List.copyOf(warnings);
  }

  List<ConfigWarning> warnings() {
    return warnings;
  }

  /** The properties of all, a later one's over an earlier one's. */
  static HadoopProperties combine(List<HadoopProperties> layers) {
    Map<String, Property> all = new LinkedHashMap<>();
    List<ConfigWarning> warnings = new java.util.ArrayList<>();
    for (HadoopProperties l : layers) {
      l.properties.forEach((k, v) -> {
        if (v.value() != null || !all.containsKey(k)) all.put(k, v);
      });
      warnings.addAll(l.warnings);
    }
    return new HadoopProperties(all, warnings);
  }

  /** The raw value (untrimmed: an ACL's leading space is meaningful), or null; marks the key read. */
  String get(String key) {
    Property p = properties.get(key);
    if (p == null || p.value() == null) return null;
    read.add(key);
    return p.value();
  }

  boolean has(String key) {
    Property p = properties.get(key);
    return p != null && p.value() != null;
  }

  /** The name to give in an error about this key. */
  String where(String key) {
    Property p = properties.get(key);
    return p == null ? key : p.where();
  }

  /** Keys starting with the prefix, in file order; not marked read. */
  List<String> keysStartingWith(String prefix) {
    return properties.keySet().stream().filter(k -> k.startsWith(prefix) && has(k)).collect(Collectors.toList());
  }

  /** Keys never read, in file order. */
  List<String> unread() {
    return properties.keySet().stream().filter(k -> has(k) && !read.contains(k)).collect(Collectors.toList());
  }

  void markRead(String key) {
    read.add(key);
  }
}
