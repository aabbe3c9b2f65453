package dev.bobbin.core.keys;

import dev.bobbin.config.RmSettings;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

/**
 * When the keys of one purpose roll: a new key every {@code rollingInterval}, made {@code
 * activationDelay} before it signs anything, and a replaced key verifying for {@code overlap} after
 * its successor started signing, until every token it signed has expired.
 */
public record KeySchedule(Duration rollingInterval, Duration activationDelay, Duration overlap) {

  /**
   * The RM's schedules. Container-token keys are handed to the NodeManagers ahead of their
   * activation, and a replaced one verifies as long as a container token lives. AM-token keys need
   * no notice (every member holds them), and a replaced one verifies for 1.5 times the AM expiry: an
   * AM that has not called allocate in that time is gone, and every AM that has was handed a token
   * signed with the new key.
   */
  public static Map<KeyPurpose, KeySchedule> of(RmSettings rm) {
    Map<KeyPurpose, KeySchedule> schedules = new EnumMap<>(KeyPurpose.class);
    schedules.put(KeyPurpose.CONTAINER_TOKEN, new KeySchedule(rm.tokenKeys().containerKeyRollingInterval(),
        rm.tokenKeys().containerKeyActivationDelay(), rm.containerAllocationExpiry()));
    schedules.put(KeyPurpose.AM_TOKEN, new KeySchedule(rm.tokenKeys().amKeyRollingInterval(), Duration.ZERO,
        rm.amExpiry().multipliedBy(3).dividedBy(2)));
    return Map.copyOf(schedules);
  }

  /**
   * How often the keys' entity looks for a roll, and each member asks for the keys it may have
   * missed: often enough that a new key is out well before it signs.
   */
  public static Duration checkInterval(Map<KeyPurpose, KeySchedule> schedules) {
    Duration shortest = Duration.ofMinutes(1);
    for (KeySchedule s : schedules.values()) {
      shortest = min(shortest, s.rollingInterval().dividedBy(4));
      if (!s.activationDelay().isZero()) shortest = min(shortest, s.activationDelay().dividedBy(4));
    }
    return shortest.compareTo(Duration.ofMillis(100)) < 0 ? Duration.ofMillis(100) : shortest;
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
