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

  record Outcome(int exitCode, String printed, boolean passed, int violations, int accepted, int succeeded, int faults) {}

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
