package dev.bobbin.core.base;

import java.time.Duration;
import org.apache.pekko.actor.typed.BackoffSupervisorStrategy;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.slf4j.event.Level;

/**
 * What an entity does when the journal fails it: a recovery that could not read its events (the
 * database is away, or the journal's circuit breaker is open) or a write that failed. It starts
 * again from the journal after a short backoff, holding the messages that arrive meanwhile, instead
 * of stopping and dropping them. So a request that reaches an entity while the journal is away is
 * answered once the journal is back, within its ask, rather than failing for the whole outage and
 * the breaker's reset time; a write whose outcome is unknown is read back from the journal before
 * the entity answers anything again.
 */
public final class JournalBackoff {
  /**
   * From 200 ms, doubling to at most 2 s (with 20 % jitter so that many entities do not retry in
   * step): with the journal's circuit breaker resetting after 2 s, an entity is back at most about
   * 2 s after the breaker lets calls through again.
   */
  public static final BackoffSupervisorStrategy STRATEGY =
      SupervisorStrategy.restartWithBackoff(Duration.ofMillis(200), Duration.ofSeconds(2), 0.2)
          // An outage fails every entity that is asked meanwhile: a warning each, not an error.
          .withLogLevel(Level.WARN);

  private JournalBackoff() {}
}
