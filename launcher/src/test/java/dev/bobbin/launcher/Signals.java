package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

/** Signals to processes a test started (SIGSTOP to freeze, SIGCONT to resume), with kill(1). */
public final class Signals {
  private Signals() {}

  /** @param signal its name without {@code SIG}: STOP, CONT */
  public static void send(String signal, List<ProcessHandle> processes) throws Exception {
    if (processes.isEmpty()) return;
    List<String> cmd = new ArrayList<>(List.of("kill", "-" + signal));
    processes.forEach(p -> cmd.add(Long.toString(p.pid())));
    assertThat(new ProcessBuilder(cmd).inheritIO().start().waitFor()).as(String.join(" ", cmd)).isZero();
  }
}
