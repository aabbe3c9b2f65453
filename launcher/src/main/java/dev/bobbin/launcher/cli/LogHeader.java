package dev.bobbin.launcher.cli;

import java.io.PrintStream;

/** How {@code bobbin logs} frames each log file it prints, as {@code yarn logs} does. */
final class LogHeader {
  private LogHeader() {}

  /** What is known of one log file before its contents. */
  record Of(String containerId, String node, String aggregationType, String fileName, String lastModified,
      String length) {}

  static void before(PrintStream out, Of file) {
    String container = "Container: " + file.containerId() + " on " + file.node();
    out.println(container);
    out.println("LogAggregationType: " + file.aggregationType());
    out.println("=".repeat(container.length()));
    out.println("LogType:" + file.fileName());
    out.println("LogLastModifiedTime:" + file.lastModified());
    out.println("LogLength:" + file.length());
    out.println("Log Contents:");
  }

  static void after(PrintStream out, String fileName) {
    String end = "End of LogType:" + fileName;
    out.println();
    out.println(end);
    out.println("*".repeat(end.length() + 50));
    out.println();
  }
}
