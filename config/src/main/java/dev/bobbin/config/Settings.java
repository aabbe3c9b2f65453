package dev.bobbin.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/** Loading and small checks shared by the settings records. */
public final class Settings {
  private Settings() {}

  /** application.conf and reference.conf, optionally under a file the user named. */
  public static Config load(Path file) {
    ConfigFactory.invalidateCaches();
    if (file == null) return ConfigFactory.load();
    if (!Files.isRegularFile(file)) {
      throw new SettingsException("config file", "no such file: " + file);
    }
    try {
      return ConfigFactory.parseFile(file.toFile()).withFallback(ConfigFactory.load()).resolve();
    } catch (ConfigException e) {
      throw new SettingsException(file.toString(), e.getMessage());
    }
  }

  /**
   * What the user configured, without Pekko's or Bobbin's defaults: the file (if any) over
   * application.conf. Components layer their own defaults under it.
   */
  public static Config userConfig(Path file) {
    ConfigFactory.invalidateCaches();
    Config app = ConfigFactory.defaultApplication();
    if (file == null) return app;
    if (!Files.isRegularFile(file)) throw new SettingsException("config file", "no such file: " + file);
    try {
      return ConfigFactory.parseFile(file.toFile()).withFallback(app);
    } catch (ConfigException e) {
      throw new SettingsException(file.toString(), e.getMessage());
    }
  }

  static int port(Config c, String key) {
    int p = c.getInt(key);
    if (p < 0 || p > 65535) throw new SettingsException(key, "port " + p + " is out of range");
    return p;
  }

  static int atLeast(Config c, String key, int min) {
    int v = c.getInt(key);
    if (v < min) throw new SettingsException(key, "must be at least " + min + ", was " + v);
    return v;
  }
}
