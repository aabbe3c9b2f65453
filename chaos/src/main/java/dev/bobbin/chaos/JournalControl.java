package dev.bobbin.chaos;

import dev.bobbin.pg.EmbeddedPostgres;
import java.util.ArrayList;
import java.util.List;

/** Journal outages: PostgreSQL stopped and started again on its data directory and port, or frozen and thawed. */
final class JournalControl {
  private final EmbeddedPostgres pg;
  private List<ProcessHandle> frozen = List.of();

  JournalControl(EmbeddedPostgres pg) {
    this.pg = pg;
  }

  /** Fast shutdown: connections are cut, the data stays. */
  synchronized void stop() {
    pg.stopServer();
  }

  /** Starts it again and waits until it accepts connections. */
  synchronized void start() {
    pg.restartServer();
  }

  /** SIGSTOP to the server first (so it starts no backend meanwhile), then to every backend. */
  synchronized boolean freeze() {
    ProcessHandle server = pg.server();
    if (!signal(server, "STOP")) return false;
    List<ProcessHandle> all = new ArrayList<>(List.of(server));
    for (ProcessHandle backend : server.descendants().toList()) {
      if (signal(backend, "STOP")) all.add(backend);
    }
    frozen = all;
    return true;
  }

  /** SIGCONT to the backends, then to the server; idempotent. */
  synchronized void thaw() {
    for (int i = frozen.size() - 1; i >= 0; i--) signal(frozen.get(i), "CONT");
    frozen = List.of();
  }

  private static boolean signal(ProcessHandle p, String sig) {
    return Commands.run("kill", "-" + sig, Long.toString(p.pid())).ok();
  }
}
