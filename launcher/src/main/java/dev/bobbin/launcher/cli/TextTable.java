package dev.bobbin.launcher.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Left-aligned columns separated by two spaces, for the client commands' listings. */
final class TextTable {
  private static final String GAP = "  ";
  private static final int MIN_FLEXIBLE = 6;

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
    print(out, widths());
  }

  /**
   * Printed within {@code width} columns where it can be: the widest of the {@code flexible} columns
   * (free text: names, queues, diagnostics) is narrowed first, its cells cut with a {@code ~}.
   */
  void print(PrintStream out, int width, int... flexible) {
    int[] widths = widths();
    while (total(widths) > width) {
      int widest = -1;
      for (int c : flexible) if (widest < 0 || widths[c] > widths[widest]) widest = c;
      if (widest < 0 || widths[widest] <= MIN_FLEXIBLE) break;
      widths[widest]--;
    }
    print(out, widths);
  }

  private int[] widths() {
    int[] widths = new int[columns];
    for (String[] r : rows) for (int c = 0; c < columns; c++) widths[c] = Math.max(widths[c], r[c].length());
    return widths;
  }

  private static int total(int[] widths) {
    int sum = GAP.length() * (widths.length - 1);
    for (int w : widths) sum += w;
    return sum;
  }

  private void print(PrintStream out, int[] widths) {
    for (String[] r : rows) {
      StringBuilder line = new StringBuilder();
      for (int c = 0; c < columns; c++) {
        String cell = r[c].length() > widths[c] ? r[c].substring(0, widths[c] - 1) + "~" : r[c];
        line.append(cell);
        if (c < columns - 1) line.append(" ".repeat(widths[c] - cell.length())).append(GAP);
      }
      out.println(line.toString().stripTrailing());
    }
  }
}
