package dev.bobbin.config.capacity;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.io.ByteArrayInputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** Test inputs: the full fixture files, and small capacity-scheduler.xml files written inline. */
final class Fixtures {
  private Fixtures() {}

  static Path resource(String name) {
    try {
      return Path.of(Fixtures.class.getResource("/capacity/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static CapacitySchedulerConfig fullXml() {
    return CapacitySchedulerConfig.parse(resource("capacity-scheduler.xml"), resource("yarn-site.xml"));
  }

  static Config fullHocon() {
    return ConfigFactory.parseFile(resource("capacity-scheduler.conf").toFile()).resolve();
  }

  /** Two queues, a and b, at 50 % each: the smallest valid tree to vary. */
  static Map<String, String> twoQueues() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("root.queues", "a,b");
    m.put("root.a.capacity", "50");
    m.put("root.b.capacity", "50");
    return m;
  }

  /** twoQueues() with more keys (or other values); keys not starting with yarn. are under yarn.scheduler.capacity. */
  static Map<String, String> twoQueuesWith(String... keyValues) {
    Map<String, String> m = twoQueues();
    for (int i = 0; i < keyValues.length; i += 2) m.put(keyValues[i], keyValues[i + 1]);
    return m;
  }

  static CapacitySchedulerConfig xml(Map<String, String> properties) {
    return CapacitySchedulerConfig.parse(stream(xmlText(properties)), "capacity-scheduler.xml");
  }

  static CapacitySchedulerConfig xml(String... keyValues) {
    return xml(twoQueuesWith(keyValues));
  }

  static String xmlText(Map<String, String> properties) {
    StringBuilder s = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    properties.forEach((k, v) -> s.append("  <property><name>").append(fullKey(k)).append("</name><value>")
        .append(v.replace("&", "&amp;").replace("<", "&lt;")).append("</value></property>\n"));
    return s.append("</configuration>\n").toString();
  }

  static String fullKey(String k) {
    return k.startsWith("yarn.") ? k : "yarn.scheduler.capacity." + k;
  }

  static ByteArrayInputStream stream(String text) {
    return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
  }

  static CapacitySchedulerConfig hocon(String section) {
    return CapacitySchedulerConfig.fromHocon(ConfigFactory.parseString("bobbin.scheduler.capacity {\n" + section + "\n}").resolve());
  }
}
