package dev.bobbin.launcher.cli;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** How the client prints times, percentages and free text. */
final class Formats {
  static final String NOT_AVAILABLE = "N/A";

  private Formats() {}

  /** Epoch milliseconds as an ISO instant in UTC; YARN uses 0 for "not yet". */
  static String time(long epochMillis) {
    if (epochMillis <= 0) return NOT_AVAILABLE;
    return Instant.ofEpochMilli(epochMillis).truncatedTo(ChronoUnit.SECONDS).toString();
  }

  /** YARN's 0–100 progress, e.g. {@code 42.5%}. */
  static String progress(float progress) {
    if (Float.isNaN(progress) || Float.isInfinite(progress)) return NOT_AVAILABLE;
    // Through the float's decimal form, so that 42.3f prints as 42.3, not 42.299999237060547.
    BigDecimal rounded = new BigDecimal(Float.toString(progress)).setScale(2, RoundingMode.HALF_UP).stripTrailingZeros();
    return rounded.toPlainString() + "%";
  }

  /** A field as printed: what the RM left out is empty. */
  static String text(Object value) {
    return value == null ? "" : value.toString();
  }

  /** Multi-line text (diagnostics) squeezed onto one line. */
  static String oneLine(String text) {
    return text == null ? "" : text.strip().replaceAll("\\s*[\\r\\n\\t]+\\s*", " ");
  }

  static String orNotAvailable(String s) {
    return s == null || s.isBlank() ? NOT_AVAILABLE : s;
  }
}
