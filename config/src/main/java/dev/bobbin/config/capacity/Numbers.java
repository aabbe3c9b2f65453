package dev.bobbin.config.capacity;

import dev.bobbin.config.SettingsException;
import dev.bobbin.config.fair.Values;

/**
 * Numbers and switches as Hadoop's Configuration reads them (surrounding white space ignored,
 * integers also in hexadecimal as 0x...), except that a value Hadoop would quietly replace by the
 * default (a boolean that is neither true nor false) is refused.
 */
final class Numbers {
  private Numbers() {}

  static int integer(String key, String text) {
    long n = longValue(key, text);
    if (n < Integer.MIN_VALUE || n > Integer.MAX_VALUE) throw new SettingsException(key, "is too large: " + text.trim());
    return (int) n;
  }

  static long longValue(String key, String text) {
    String v = text.trim();
    try {
      if (v.startsWith("0x") || v.startsWith("0X")) return Long.parseLong(v.substring(2), 16);
      if (v.startsWith("-0x") || v.startsWith("-0X")) return -Long.parseLong(v.substring(3), 16);
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new SettingsException(key, "not a whole number: '" + text + "'");
    }
  }

  static float floatValue(String key, String text) {
    try {
      float f = Float.parseFloat(text.trim());
      if (Float.isNaN(f) || Float.isInfinite(f)) throw new NumberFormatException();
      return f;
    } catch (NumberFormatException e) {
      throw new SettingsException(key, "not a number: '" + text + "'");
    }
  }

  static double doubleValue(String key, String text) {
    return Values.number(key, text);
  }

  static boolean bool(String key, String text) {
    return Values.bool(key, text);
  }

  /** A fraction between 0 and 1, such as maximum-am-resource-percent (0.1 is 10 %). */
  static float fraction(String key, String text) {
    float f = floatValue(key, text);
    if (f < 0 || f > 1) {
      throw new SettingsException(key, "must be between 0 and 1 (a fraction: 0.1 is 10%), was " + text.trim());
    }
    return f;
  }
}
