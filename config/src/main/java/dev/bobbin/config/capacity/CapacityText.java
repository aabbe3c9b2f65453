package dev.bobbin.config.capacity;

import dev.bobbin.config.SettingsException;
import java.math.BigInteger;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a queue's {@code capacity} and {@code maximum-capacity}: a percentage ({@code 12.5}),
 * {@code -1} for an unlimited maximum, or Hadoop's absolute resources in brackets
 * ({@code [memory=10240,vcores=12]}; memory may be written {@code memory-mb} and carry Hadoop's
 * units, {@code 10Gi} or {@code 10G}). Hadoop's weights ({@code 2w}) and mixed capacity vectors
 * ({@code [memory=50%,vcores=2w]}) are refused: Bobbin does not have those modes yet.
 */
final class CapacityText {
  private static final Pattern AMOUNT = Pattern.compile("(\\d+)([A-Za-z]*)");
  private static final long MIB = 1024L * 1024L;
  /** Hadoop's memory units, as bytes per unit; sub-byte units (p, n, u, m) make no sense for memory. */
  private static final Map<String, Long> UNITS =
      Map.ofEntries(
          Map.entry("", MIB), Map.entry("k", 1000L), Map.entry("M", 1000L * 1000), Map.entry("G", 1000L * 1000 * 1000),
          Map.entry("T", 1000L * 1000 * 1000 * 1000), Map.entry("P", 1000L * 1000 * 1000 * 1000 * 1000),
          Map.entry("Ki", 1024L), Map.entry("Mi", MIB), Map.entry("Gi", MIB * 1024), Map.entry("Ti", MIB * 1024 * 1024),
          Map.entry("Pi", MIB * 1024 * 1024 * 1024));
  private static final String EXAMPLES = "e.g. 40 (a percentage) or [memory=10240,vcores=12]";

  private CapacityText() {}

  /** A capacity: 0 to 100 percent, or absolute. */
  static QueueCapacity capacity(String key, String text) {
    return read(key, text, false);
  }

  /** A maximum capacity: -1 or 0 to 100 percent (-1 and 100 are unlimited), or absolute. */
  static QueueCapacity maximum(String key, String text) {
    return read(key, text, true);
  }

  private static QueueCapacity read(String key, String text, boolean maximum) {
    String v = text.trim();
    if (v.isEmpty()) throw new SettingsException(key, "is empty; " + EXAMPLES);
    if (v.startsWith("[")) return absolute(key, text, v);
    if (v.endsWith("w") && isNumber(v.substring(0, v.length() - 1))) {
      throw new SettingsException(
          key, "weights ('" + v + "') are not supported yet; give percentages that sum to 100 among siblings, or absolute resources");
    }
    float percent;
    try {
      percent = Float.parseFloat(v);
    } catch (NumberFormatException e) {
      throw new SettingsException(key, "not a percentage or [resources]: '" + text + "'; " + EXAMPLES);
    }
    if (maximum && percent == -1f) return QueueCapacity.UNLIMITED;
    if (!(percent >= 0 && percent <= 100)) {
      throw new SettingsException(
          key, "must be between 0 and 100" + (maximum ? ", or -1 for no limit" : "") + " (a percentage of the parent queue), was " + v);
    }
    return new QueueCapacity.Percentage(percent);
  }

  private static boolean isNumber(String s) {
    try {
      Float.parseFloat(s);
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static QueueCapacity absolute(String key, String text, String v) {
    if (!v.endsWith("]")) throw new SettingsException(key, "'" + text + "' has no closing ']'; " + EXAMPLES);
    Long memory = null;
    Integer vcores = null;
    for (String pair : v.substring(1, v.length() - 1).split(",", -1)) {
      String[] nv = pair.split("=", -1);
      if (nv.length != 2 || nv[0].isBlank() || nv[1].isBlank()) {
        throw new SettingsException(key, "every resource must be name=amount in '" + text + "'; " + EXAMPLES);
      }
      String name = nv[0].trim();
      String amount = nv[1].replace(" ", "");
      if (amount.endsWith("%") || amount.endsWith("w")) {
        throw new SettingsException(
            key, "percentages and weights inside [...] ('" + text + "') are not supported yet; give absolute amounts");
      }
      switch (name) {
        case "memory", "memory-mb" -> {
          if (memory != null) throw new SettingsException(key, "memory is given twice in '" + text + "'");
          memory = memoryMb(key, text, amount);
        }
        case "vcores" -> {
          if (vcores != null) throw new SettingsException(key, "vcores is given twice in '" + text + "'");
          vcores = vcores(key, text, amount);
        }
        default -> throw new SettingsException(
            key, "unknown resource '" + name + "' in '" + text + "' (known: memory, memory-mb, vcores)");
      }
    }
    // Hadoop reads an absolute capacity without memory as no capacity at all.
    if (memory == null || memory == 0) throw new SettingsException(key, "memory is missing or 0 in '" + text + "'");
    return new QueueCapacity.Absolute(memory, vcores == null ? 0 : vcores);
  }

  /** As Hadoop converts: the amount in its unit, turned into whole MiB, rounding down. */
  static long memoryMb(String key, String text, String amount) {
    Matcher m = AMOUNT.matcher(amount);
    if (!m.matches()) throw new SettingsException(
        key, "memory must be a whole number with an optional unit, was '" + amount + "' in '" + text + "'");
    String unit = m.group(2);
    Long bytesPerUnit = UNITS.get(unit);
    if (bytesPerUnit == null) {
      String n = m.group(1);
      String hint = unit.toLowerCase(Locale.ROOT).equals("m") ? " ('m' is milli in Hadoop's units; write " + n + " or " + n + "Mi)" : "";
      throw new SettingsException(
          key, "unknown memory unit '" + unit + "' in '" + text + "' (known: Ki, Mi, Gi, Ti, Pi, k, M, G, T, P)" + hint);
    }
    BigInteger mb = new BigInteger(m.group(1)).multiply(BigInteger.valueOf(bytesPerUnit)).divide(BigInteger.valueOf(MIB));
    if (mb.bitLength() > 62) throw new SettingsException(key, "memory is too large in '" + text + "'");
    return mb.longValue();
  }

  static int vcores(String key, String text, String amount) {
    try {
      int n = Integer.parseInt(amount);
      if (n < 0) throw new NumberFormatException();
      return n;
    } catch (NumberFormatException e) {
      throw new SettingsException(key, "vcores must be a whole number, was '" + amount + "' in '" + text + "'");
    }
  }
}
