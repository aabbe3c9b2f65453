package dev.bobbin.config.security;

import dev.bobbin.config.SettingsException;
import java.util.Locale;

/** How a user's HTTP request is authenticated ({@code hadoop.http.authentication.type}). */
public enum AuthMethod {
  /** YARN's pseudo authentication: the user the request names. */
  SIMPLE,
  /** A signed bearer token (JWT). */
  TOKEN;

  public static AuthMethod parse(String key, String value) {
    try {
      return valueOf(value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new SettingsException(key, "unknown authentication '" + value + "' (known: simple, token)");
    }
  }

  public String lowerName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
