package dev.bobbin.http.serving;

import com.typesafe.config.Config;
import dev.bobbin.config.SettingsException;
import java.time.Duration;

/** {@code bobbin.rm.journal-probe}: how often a member checks that its journal answers, and how long it waits. */
public record JournalProbeSettings(Duration interval, Duration timeout) {
  private static final String PATH = "bobbin.rm.journal-probe";

  public static JournalProbeSettings from(Config config) {
    Duration interval = config.getDuration(PATH + ".interval");
    Duration timeout = config.getDuration(PATH + ".timeout");
    if (interval.isNegative() || interval.isZero()) throw new SettingsException(PATH + ".interval", "must be positive");
    if (timeout.isNegative() || timeout.isZero()) throw new SettingsException(PATH + ".timeout", "must be positive");
    return new JournalProbeSettings(interval, timeout);
  }
}
