package dev.bobbin.launcher.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Left-aligned columns separated by two spaces, for {@code apps}, {@code nodes} and attempts. */
final class TextTable {
  private static final String GAP = "  ";

  private final List<String[]> rows = new ArrayList<>();
  private final int columns;

  TextTable(String... headers) {
    this.columns = headers.length;
    rows.add(headers);
  }

  TextTable row(String... cells) {
    if (cells.length != columns) throw new IllegalArgumentException("Expected " + columns + " cells");
    rows.add(Arrays.stream(cells).map(Formats::oneLine).toArray(String[]::new));
    return this;
  }

  void print(PrintStream out) {
    int[] widths = new int[columns];
    for (String[] r : rows) for (int c = 0; c < columns; c++) widths[c] = Math.max(widths[c], r[c].length());
    for (String[] r : rows) {
      StringBuilder line = new StringBuilder();
      for (int c = 0; c < columns; c++) {
        line.append(r[c]);
        if (c < columns - 1) line.append(" ".repeat(widths[c] - r[c].length())).append(GAP);
      }
      out.println(line.toString().stripTrailing());
    }
  }
}
