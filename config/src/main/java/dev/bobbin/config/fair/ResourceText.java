package dev.bobbin.config.fair;

import dev.bobbin.config.SettingsException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads Hadoop's three resource notations. Which one is decided as Hadoop does: any '=' means
 * "name=value" pairs, else any '%' means the old percentage form, else "X mb, Y vcores".
 */
final class ResourceText {
  enum Use {
    LIMIT,
    MINIMUM,
    CONTAINER
  }

  private static final String EXAMPLES =
      "expected e.g. \"1024 mb, 4 vcores\", \"memory-mb=1024, vcores=4\" or \"50% memory, 25% cpu\"";

  private ResourceText() {}

  static ResourceSpec parse(String key, String text, Use use) {
    String v = text.trim().toLowerCase(Locale.ROOT);
    if (v.isEmpty()) throw new SettingsException(key, "empty resource value; " + EXAMPLES);
    ResourceSpec spec;
    if (v.contains("=")) {
      spec = pairs(key, text, v, use);
    } else if (v.contains("%")) {
      spec = oldPercentage(key, text, v);
    } else {
      spec = new ResourceSpec.Absolute(oldAmount(key, text, v, "mb"), toVcores(key, oldAmount(key, text, v, "vcores")));
    }
    if (use != Use.LIMIT && spec instanceof ResourceSpec.Percentage) {
      throw new SettingsException(
          key, "must be an absolute amount such as \"1024 mb, 2 vcores\", not a percentage: '" + text + "'");
    }
    return spec;
  }

  /** "1024 mb, 4 vcores" in any order; like Hadoop, a fraction is cut to its whole part. */
  private static long oldAmount(String key, String text, String v, String unit) {
    Matcher m = Pattern.compile("(-?\\d+)(\\.\\d*)?\\s*" + unit).matcher(v);
    if (!m.find()) {
      throw new SettingsException(key, "missing " + unit + " in '" + text + "'; " + EXAMPLES);
    }
    long n;
    try {
      n = Long.parseLong(m.group(1));
    } catch (NumberFormatException e) {
      throw new SettingsException(key, unit + " amount is too large in '" + text + "'");
    }
    if (n < 0) throw new SettingsException(key, unit + " must not be negative in '" + text + "'");
    return n;
  }

  /**
   * Without a comma the first percentage applies to both resources (so, as in Hadoop, "50% memory"
   * alone also caps cpu at 50%); with one, both "X% memory" and "Y% cpu" must be given.
   */
  private static ResourceSpec oldPercentage(String key, String text, String v) {
    if (v.split(",").length == 1) {
      double p = percentIn(key, text, v, "");
      return new ResourceSpec.Percentage(p, p);
    }
    return new ResourceSpec.Percentage(percentIn(key, text, v, "memory"), percentIn(key, text, v, "cpu"));
  }

  private static double percentIn(String key, String text, String v, String unit) {
    Matcher m = Pattern.compile("(-?\\d+(\\.\\d*)?)\\s*%\\s*" + unit).matcher(v);
    if (!m.find()) {
      String what = unit.isEmpty() ? "a percentage" : "\"X% " + unit + "\"";
      throw new SettingsException(key, "missing " + what + " in '" + text + "'; " + EXAMPLES);
    }
    return fraction(key, text, m.group(1));
  }

  /** "memory-mb=1024, vcores=4" or "memory-mb=50%, vcores=25%"; all values absolute or all shares. */
  private static ResourceSpec pairs(String key, String text, String v, Use use) {
    boolean shares = v.contains("%");
    Long memory = null;
    Long vcores = null;
    Double memoryShare = null;
    Double vcoresShare = null;
    for (String pair : v.split(",", -1)) {
      String[] parts = pair.split("=", -1);
      if (parts.length != 2) {
        throw new SettingsException(key, "every resource must be name=value in '" + text + "'");
      }
      String name = parts[0].trim();
      String value = parts[1].trim();
      boolean isMemory = name.equals("memory-mb");
      if (!isMemory && !name.equals("vcores")) {
        throw new SettingsException(key, "unknown resource '" + name + "' in '" + text + "' (known: memory-mb, vcores)");
      }
      if (isMemory ? (memory != null || memoryShare != null) : (vcores != null || vcoresShare != null)) {
        throw new SettingsException(key, name + " is given twice in '" + text + "'");
      }
      if (shares) {
        Matcher m = Pattern.compile("(-?\\d+(\\.\\d*)?)\\s*%").matcher(value);
        if (!m.matches()) {
          throw new SettingsException(
              key, "when one value is a percentage all must be; '" + value + "' is not, in '" + text + "'");
        }
        double f = fraction(key, text, m.group(1));
        if (isMemory) memoryShare = f;
        else vcoresShare = f;
      } else {
        long n;
        try {
          n = Long.parseLong(value);
        } catch (NumberFormatException e) {
          throw new SettingsException(key, name + " must be a whole number, was '" + value + "' in '" + text + "'");
        }
        if (n < 0) throw new SettingsException(key, name + " must not be negative in '" + text + "'");
        if (isMemory) memory = n;
        else vcores = n;
      }
    }
    if (shares) {
      // Percentages only ever cap, so a resource left out is not capped.
      return new ResourceSpec.Percentage(
          memoryShare == null ? 1.0 : memoryShare, vcoresShare == null ? 1.0 : vcoresShare);
    }
    boolean minimum = use == Use.MINIMUM;
    long mem = memory != null ? memory : minimum ? 0 : ResourceSpec.Absolute.UNBOUNDED_MEMORY;
    int vc = vcores != null ? toVcores(key, vcores) : minimum ? 0 : ResourceSpec.Absolute.UNBOUNDED_VCORES;
    return new ResourceSpec.Absolute(mem, vc);
  }

  private static double fraction(String key, String text, String number) {
    double p = Double.parseDouble(number);
    if (p < 0) throw new SettingsException(key, "percentage must not be negative in '" + text + "'");
    return p / 100.0;
  }

  private static int toVcores(String key, long n) {
    if (n > Integer.MAX_VALUE) throw new SettingsException(key, "vcores amount is too large: " + n);
    return (int) n;
  }
}
