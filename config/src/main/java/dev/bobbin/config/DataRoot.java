package dev.bobbin.config;

import java.nio.file.Path;
import java.util.Map;

/**
 * Where a Bobbin process keeps its state on a host unless told otherwise: the directory given,
 * else {@code $XDG_STATE_HOME/bobbin}, else {@code ~/.local/state/bobbin} (the XDG Base Directory
 * specification's state directory). Never the working directory, which may be a checkout.
 */
public final class DataRoot {
  static final String XDG_STATE_HOME = "XDG_STATE_HOME";

  private DataRoot() {}

  /** @param configured the directory given, or blank for the default */
  public static Path resolve(String configured) {
    return resolve(configured, System.getenv(), System.getProperty("user.home"));
  }

  static Path resolve(String configured, Map<String, String> env, String userHome) {
    if (configured != null && !configured.isBlank()) return Path.of(configured);
    String xdg = env.get(XDG_STATE_HOME);
    // The specification asks to ignore a relative path there.
    if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) return Path.of(xdg, "bobbin");
    return Path.of(userHome, ".local", "state", "bobbin");
  }
}
