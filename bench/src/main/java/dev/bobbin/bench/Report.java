package dev.bobbin.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One scenario's result: markdown for the results file (tables and notes), the same text for the
 * console, and the headline figures by name for tests and goal checks.
 */
final class Report {
  final String key;
  final String title;
  final List<String> lines = new ArrayList<>();
  final Map<String, Double> figures = new LinkedHashMap<>();

  Report(String key, String title) {
    this.key = key;
    this.title = title;
  }

  Report line(String s) {
    lines.add(s);
    return this;
  }

  Report blank() {
    lines.add("");
    return this;
  }

  Report figure(String name, double value) {
    figures.put(name, value);
    return this;
  }

  /** A markdown table; the first row is the header. */
  Report table(List<List<String>> rows) {
    if (rows.isEmpty()) return this;
    lines.add("| " + String.join(" | ", rows.get(0)) + " |");
    lines.add("|" + " --- |".repeat(rows.get(0).size()));
    for (List<String> r : rows.subList(1, rows.size())) lines.add("| " + String.join(" | ", r) + " |");
    lines.add("");
    return this;
  }

  /** "met" or "MISSED" against a goal, for the goal tables. */
  static String verdict(boolean met) {
    return met ? "met" : "**MISSED**";
  }

  static String num(double v) {
    if (Double.isNaN(v)) return "n/a";
    if (Math.abs(v) >= 100) return String.format(Locale.ROOT, "%,.0f", v);
    if (Math.abs(v) >= 10) return String.format(Locale.ROOT, "%.1f", v);
    return String.format(Locale.ROOT, "%.2f", v);
  }

  static String ms(double nanos) {
    if (Double.isNaN(nanos)) return "n/a";
    double ms = nanos / 1e6;
    return ms >= 100 ? String.format(Locale.ROOT, "%,.0f ms", ms)
        : ms >= 1 ? String.format(Locale.ROOT, "%.1f ms", ms) : String.format(Locale.ROOT, "%.2f ms", ms);
  }

  static String seconds(double nanos) {
    return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
  }

  static String mib(long bytes) {
    return String.format(Locale.ROOT, "%,.0f MiB", bytes / (1024.0 * 1024.0));
  }
}
