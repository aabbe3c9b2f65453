package dev.bobbin.chaos;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as the command line writes them: {@code 500ms}, {@code 20s}, {@code 5m}, {@code 1h}; a bare number is seconds. */
final class Durations {
  private static final Pattern FORMAT = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h)?");

  private Durations() {}

  static Duration parse(String option, String text) {
    Matcher m = FORMAT.matcher(text.strip().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new ChaosUsageException("--" + option + " must be a duration such as 500ms, 20s, 5m or 1h, was '" + text + "'");
    }
    double n = Double.parseDouble(m.group(1));
    String unit = m.group(2) == null ? "s" : m.group(2);
    double millis = switch (unit) {
      case "ms" -> n;
      case "m" -> n * 60_000;
      case "h" -> n * 3_600_000;
      default -> n * 1000;
    };
    return Duration.ofMillis(Math.round(millis));
  }

  /** Seconds with one decimal, e.g. {@code 3.4s}. */
  static String format(Duration d) {
    return format(d.toMillis());
  }

  static String format(long millis) {
    return String.format(Locale.ROOT, "%.1fs", millis / 1000.0);
  }
}
