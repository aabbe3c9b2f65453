package dev.bobbin.core.policy;

import java.util.List;

/** A policy's answer to a new configuration: taken, with what it now runs, or refused and why. */
public sealed interface Reconfiguration {
  /** @param summary what the policy now runs, for the operator (e.g. its queues) */
  record Accepted(String summary) implements Reconfiguration {}

  /** The running configuration stays. */
  record Rejected(List<String> reasons) implements Reconfiguration {
    public Rejected {
      reasons = List.copyOf(reasons);
    }
  }
}
