package dev.bobbin.protocol.client;

/** What a call accepts in return: YARN's REST API answers both; Bobbin's own protocols speak JSON. */
public enum MediaType {
  JSON("application/json"),
  XML("application/xml");

  private final String value;

  MediaType(String value) {
    this.value = value;
  }

  public String value() {
    return value;
  }
}
