package dev.bobbin.chaos;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Runs {@link ChaosCommand} in this JVM, keeping what it printed. */
final class ChaosRunner {
  private static final Pattern RESULT =
      Pattern.compile("chaos: (PASS|FAIL) violations=(\\d+) accepted=(\\d+) succeeded=(\\d+) faults=(\\d+)");

  record Outcome(int exitCode, String printed, boolean passed, int violations, int accepted, int succeeded, int faults) {
    /** The value of a row of the summary's invariants or targets, by its label; -1 if it has none. */
    long row(String label) {
      Matcher m = Pattern.compile("^  " + Pattern.quote(label) + "\\s+(\\d+)\\s+expected", Pattern.MULTILINE)
          .matcher(printed);
      return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    /** What the summary's fault table says each fault of {@code kind} did (its recovery column). */
    List<String> faultNotes(String kind) {
      Matcher m = Pattern.compile("^  \\d+\\s+\\S+\\s+" + Pattern.quote(kind) + "\\s+\\S+\\s+\\S+\\s+\\S+\\s+(.*)$",
          Pattern.MULTILINE).matcher(printed);
      List<String> out = new ArrayList<>();
      while (m.find()) out.add(m.group(1));
      return out;
    }

    /** Task containers of long-running applications that were running when one of their AMs died; -1 if not said. */
    int keptAtAmDeath() {
      Matcher m = Pattern.compile("task containers running at an AM death: (\\d+)").matcher(printed);
      return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }
  }

  private ChaosRunner() {}

  static Outcome run(List<String> args) {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    // Also to the test's own output file, so a slow or stuck run can be followed while it goes.
    PrintStream out = new PrintStream(new Tee(buf, System.out), true, StandardCharsets.UTF_8);
    // The child RM, NM and AM processes run on this JVM's classpath, which holds the launcher.
    int code = ChaosCommand.run(new ArrayList<>(args), out);
    String printed = buf.toString(StandardCharsets.UTF_8);
    Matcher m = RESULT.matcher(printed);
    if (!m.find()) return new Outcome(code, printed, false, -1, -1, -1, -1);
    return new Outcome(code, printed, m.group(1).equals("PASS"), Integer.parseInt(m.group(2)),
        Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5)));
  }

  private static final class Tee extends OutputStream {
    private final OutputStream a;
    private final OutputStream b;

    Tee(OutputStream a, OutputStream b) {
      this.a = a;
      this.b = b;
    }

    @Override
    public void write(int c) throws java.io.IOException {
      a.write(c);
      b.write(c);
    }

    @Override
    public void write(byte[] bytes, int off, int len) throws java.io.IOException {
      a.write(bytes, off, len);
      b.write(bytes, off, len);
    }

    @Override
    public void flush() throws java.io.IOException {
      a.flush();
      b.flush();
    }
  }
}
