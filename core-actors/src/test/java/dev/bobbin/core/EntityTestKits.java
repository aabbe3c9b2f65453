package dev.bobbin.core;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;

/** Configuration for entity tests: in-memory journal, every command, event and state serialized. */
public final class EntityTestKits {
  private EntityTestKits() {}

  public static Config config() {
    return EventSourcedBehaviorTestKit.config()
        .withFallback(ConfigFactory.parseString("pekko.actor.serialize-messages = on"))
        .withFallback(ConfigFactory.load());
  }
}
