package dev.bobbin.config;

/** A setting with a bad value; the message names the key. */
public final class SettingsException extends RuntimeException {
  private final String key;

  public SettingsException(String key, String problem) {
    super(key + ": " + problem);
    this.key = key;
  }

  public String key() {
    return key;
  }
}
