package dev.bobbin.am;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;

/** Pekko settings for an AM's own ActorSystem: log through SLF4J, stay quiet on shutdown. */
public final class AmSystemConfig {
  private AmSystemConfig() {}

  public static Config load() {
    return ConfigFactory.parseString(
            """
            pekko.loggers = ["org.apache.pekko.event.slf4j.Slf4jLogger"]
            pekko.logging-filter = "org.apache.pekko.event.slf4j.Slf4jLoggingFilter"
            pekko.loglevel = INFO
            pekko.log-dead-letters-during-shutdown = off
            pekko.coordinated-shutdown.exit-jvm = off
            """)
        .withFallback(ConfigFactory.load());
  }
}
