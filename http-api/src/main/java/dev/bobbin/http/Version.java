package dev.bobbin.http;

/** The version this build reports. */
final class Version {
  static final String VERSION = "bobbin-0.1.0";

  private Version() {}
}
