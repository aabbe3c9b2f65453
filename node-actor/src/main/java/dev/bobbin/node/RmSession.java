package dev.bobbin.node;

import java.time.Duration;

/** Where a node stands with the RM; each phase is immutable. */
sealed interface RmSession {
  /** Not (or no longer) registered: registering, after start or after a RESYNC. */
  record Registering() implements RmSession {}

  /** Registered: {@code lastResponseId} is echoed in the next heartbeat. */
  record Registered(long rmIdentifier, int lastResponseId, Duration interval) implements RmSession {
    Registered next(int responseId, long nextIntervalMs) {
      Duration i = nextIntervalMs > 0 ? Duration.ofMillis(nextIntervalMs) : interval;
      return new Registered(rmIdentifier, responseId, i);
    }
  }

  /** The RM said SHUTDOWN, or the node is stopping: no more RM calls. */
  record Ended(String why) implements RmSession {}
}
