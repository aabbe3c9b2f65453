package dev.bobbin.config.capacity;

/**
 * A key that was read but has no effect, and why: unknown to Hadoop (a typo, most likely), a
 * Hadoop feature Bobbin does not have yet, or a setting for a queue that is not in the tree.
 */
public record ConfigWarning(String key, String reason) {
  @Override
  public String toString() {
    return key + ": " + reason;
  }
}
