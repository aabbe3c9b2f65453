package dev.bobbin.config.fair;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.net.URISyntaxException;

/** Test inputs: the full fixture files, and small allocation files written inline. */
final class Fixtures {
  private Fixtures() {}

  static Path resource(String name) {
    try {
      return Path.of(Fixtures.class.getResource("/fair/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static FairSchedulerConfig fullXml() {
    return AllocationFileParser.parse(resource("fair-scheduler.xml"));
  }

  static Config fullHocon() {
    return ConfigFactory.parseFile(resource("fair-scheduler.conf").toFile()).resolve();
  }

  /** An allocation file whose {@code <allocations>} holds {@code body}. */
  static FairSchedulerConfig xml(String body) {
    return AllocationFileParser.parse(stream("<?xml version=\"1.0\"?>\n<allocations>\n" + body + "\n</allocations>\n"));
  }

  static InputStream stream(String text) {
    return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
  }

  static FairSchedulerConfig hocon(String section) {
    return FairSchedulerConfig.fromHocon(ConfigFactory.parseString("bobbin.scheduler.fair {\n" + section + "\n}").resolve());
  }
}
