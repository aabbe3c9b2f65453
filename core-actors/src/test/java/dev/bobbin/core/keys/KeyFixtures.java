package dev.bobbin.core.keys;

import dev.bobbin.protocol.Tokens;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The key schedule the key tests work in, in seconds: container-token keys roll every 100 s, are
 * made 20 s before they sign and verify 30 s after their successor signs; AM-token keys roll every
 * 60 s, need no notice, and verify 15 s after their successor signs.
 */
final class KeyFixtures {
  static final long S = 1000;
  static final long T0 = 1_700_000_000_000L;
  static final Map<KeyPurpose, KeySchedule> SCHEDULES = Map.of(
      KeyPurpose.CONTAINER_TOKEN, new KeySchedule(Duration.ofSeconds(100), Duration.ofSeconds(20), Duration.ofSeconds(30)),
      KeyPurpose.AM_TOKEN, new KeySchedule(Duration.ofSeconds(60), Duration.ZERO, Duration.ofSeconds(15)));

  private KeyFixtures() {}

  /** A secret, base64url, that names what it is for. */
  static String secret(String name) {
    return Tokens.encodeKey((name + "-0123456789abcdef0123456789").getBytes(StandardCharsets.UTF_8));
  }

  /** A clock a test sets, starting at {@link #T0}. */
  static final class SetClock extends Clock {
    private final AtomicLong now = new AtomicLong(T0);

    void set(long millis) {
      now.set(millis);
    }

    @Override
    public long millis() {
      return now.get();
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(now.get());
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }
}
