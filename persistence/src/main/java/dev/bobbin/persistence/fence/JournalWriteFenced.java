package dev.bobbin.persistence.fence;

/**
 * A journal write refused because its member does not hold, or no longer holds, the lease of the
 * entity it writes: the entity lives elsewhere now, or this member was downed.
 */
public final class JournalWriteFenced extends RuntimeException {
  public JournalWriteFenced(String message) {
    super(message);
  }
}
