package dev.bobbin.config.capacity;

import dev.bobbin.config.SettingsException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a queue's {@code maximum-allocation}, Hadoop's resource list without brackets:
 * {@code memory-mb=4096,vcores=2}, memory optionally in {@code M} or {@code G}. Hadoop sets a
 * resource left out of the list to 0, and reads {@code memory} without a unit as bytes; both would
 * leave the queue unable to run anything, so both are refused.
 */
final class MaximumAllocationText {
  private static final Pattern PAIR = Pattern.compile("([^=]+)=(\\d+)\\s?([A-Za-z]*)");

  /** @param memoryMb the largest container's memory in MB */
  record Allocation(long memoryMb, int vcores) {}

  private MaximumAllocationText() {}

  static Allocation parse(String key, String text) {
    Long memory = null;
    Integer vcores = null;
    for (String raw : text.trim().split(",", -1)) {
      String pair = raw.trim();
      Matcher m = PAIR.matcher(pair);
      if (!m.matches()) {
        throw new SettingsException(key, "'" + pair + "' is not name=amount; e.g. memory-mb=4096,vcores=2");
      }
      String name = m.group(1).trim();
      long amount = parseAmount(key, m.group(2));
      String unit = m.group(3);
      long factor =
          switch (unit) {
            case "" -> 1;
            case "M", "m" -> 1;
            case "G", "g" -> 1024;
            default -> throw new SettingsException(key, "unknown unit '" + unit + "' in '" + pair + "' (Hadoop accepts M, G or none)");
          };
      switch (name) {
        case "memory-mb", "memory" -> {
          if (memory != null) throw new SettingsException(key, "memory is given twice in '" + text + "'");
          if (name.equals("memory") && unit.isEmpty()) {
            throw new SettingsException(
                key, "Hadoop reads memory=" + amount + " as bytes; write memory-mb=" + amount + " or memory=" + amount + "M");
          }
          if (amount > Long.MAX_VALUE / factor) throw new SettingsException(key, "memory is too large: " + pair);
          memory = amount * factor;
        }
        case "vcores" -> {
          if (vcores != null) throw new SettingsException(key, "vcores is given twice in '" + text + "'");
          if (amount > Integer.MAX_VALUE) throw new SettingsException(key, "vcores is too large: " + amount);
          vcores = (int) amount;
        }
        default -> throw new SettingsException(key, "unknown resource '" + name + "' (known: memory-mb, memory, vcores)");
      }
    }
    if (memory == null || vcores == null) {
      throw new SettingsException(
          key, "give both memory-mb and vcores, e.g. memory-mb=4096,vcores=2 (Hadoop takes a resource left out as 0)");
    }
    return new Allocation(memory, vcores);
  }

  private static long parseAmount(String key, String digits) {
    try {
      return Long.parseLong(digits);
    } catch (NumberFormatException e) {
      throw new SettingsException(key, "amount is too large: " + digits);
    }
  }
}
