package dev.bobbin.protocol.rest;

import java.util.Set;

/**
 * The answer to {@code PUT /ws/v1/cluster/apps/{id}/state} with {@code KILLED}: {@code accepted} is
 * true for a 202 (the kill is under way), and {@code state} is the application's state then.
 */
public record KillAnswer(boolean accepted, String state) {
  private static final Set<String> FINAL = Set.of("FINISHED", "FAILED", "KILLED");

  /** True once the application is in a final state and no kill is pending. */
  public boolean isFinal() {
    return !accepted && FINAL.contains(state);
  }
}
