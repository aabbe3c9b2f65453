package dev.bobbin.protocol.client;

/**
 * What a call accepts in return: YARN's REST API answers JSON and XML; Bobbin's own protocols speak
 * JSON; a NodeManager serves containers' logs as text.
 */
public enum MediaType {
  JSON("application/json"),
  XML("application/xml"),
  TEXT("text/plain");

  private final String value;

  MediaType(String value) {
    this.value = value;
  }

  public String value() {
    return value;
  }
}
