package dev.bobbin.core.policy;

/**
 * How near to what it asked for a container is placed, YARN's {@code NodeType}: on a host it named,
 * elsewhere in a rack it named, or anywhere. From the strictest to the most relaxed.
 */
public enum Locality {
  NODE_LOCAL,
  RACK_LOCAL,
  OFF_SWITCH;

  /** Whether a placement at {@code level} is allowed when this level is. */
  public boolean admits(Locality level) {
    return level.ordinal() <= ordinal();
  }

  /** How a reason names it: node-local, rack-local, off-switch. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }
}
