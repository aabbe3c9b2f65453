package dev.bobbin.config.fair;

import dev.bobbin.config.SettingsException;
import java.time.Duration;
import java.util.Locale;

/**
 * Text-to-value conversions and Hadoop's range rules, with errors that name the setting. The
 * number and boolean readers are shared by the Hadoop file importers.
 */
public final class Values {
  private Values() {}

  public static double number(String key, String text) {
    try {
      double d = Double.parseDouble(text.trim());
      if (Double.isNaN(d) || Double.isInfinite(d)) throw new NumberFormatException();
      return d;
    } catch (NumberFormatException e) {
      throw new SettingsException(key, "not a number: '" + text + "'");
    }
  }

  static long wholeNumber(String key, String text) {
    try {
      return Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw new SettingsException(key, "not a whole number: '" + text + "'");
    }
  }

  public static boolean bool(String key, String text) {
    String v = text.trim().toLowerCase(Locale.ROOT);
    if (v.equals("true")) return true;
    if (v.equals("false")) return false;
    throw new SettingsException(key, "not true or false: '" + text + "'");
  }

  /** The allocation file gives timeouts in whole seconds. */
  static Duration seconds(String key, String text) {
    long s;
    try {
      s = Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw new SettingsException(key, "not a whole number of seconds: '" + text + "'");
    }
    return timeout(key, Duration.ofSeconds(s));
  }

  static Duration timeout(String key, Duration d) {
    if (d.isNegative()) throw new SettingsException(key, "must not be negative, was " + d);
    return d;
  }

  static double weight(String key, double w) {
    if (w < 0) throw new SettingsException(key, "weight must not be negative, was " + w);
    return w;
  }

  static int apps(String key, long n) {
    if (n < 0) throw new SettingsException(key, "must not be negative, was " + n);
    if (n > Integer.MAX_VALUE) throw new SettingsException(key, "is too large: " + n);
    return (int) n;
  }

  /** -1 turns the AM limit off; Hadoop quietly lowers anything above 1 to 1. */
  static double amShare(String key, double share) {
    if (share == -1.0) return share;
    if (share < 0) {
      throw new SettingsException(key, "must be between 0 and 1, or -1 to disable, was " + share);
    }
    return Math.min(share, 1.0);
  }

  /** Hadoop clamps the fair share preemption threshold into [0, 1]. */
  static double threshold(double t) {
    return Math.max(0.0, Math.min(1.0, t));
  }
}
