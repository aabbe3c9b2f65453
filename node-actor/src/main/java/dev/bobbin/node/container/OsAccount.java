package dev.bobbin.node.container;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/** A user account of the host, as the name service ({@code getent passwd}) knows it. */
public record OsAccount(String name, int uid, int gid, String home) {
  /**
   * YARN's {@code yarn.nodemanager.linux-container-executor.nonsecure-mode.user-pattern}: also keeps
   * a name from being read as an option by the tools it is passed to.
   */
  static final Pattern VALID_NAME = Pattern.compile("^[_.A-Za-z0-9][-@_.A-Za-z0-9]{0,255}?[$]?$");

  /** The account of that name, or empty when the host has none. */
  public static Optional<OsAccount> lookup(String name) throws IOException {
    if (!VALID_NAME.matcher(name).matches()) return Optional.empty();
    Process getent = new ProcessBuilder("getent", "passwd", name)
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
        .start();
    String out = new String(getent.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      if (!getent.waitFor(10, TimeUnit.SECONDS)) {
        getent.destroyForcibly();
        throw new IOException("getent passwd " + name + " did not answer within 10 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while looking up user " + name, e);
    }
    // Exit 2: no such entry.
    if (getent.exitValue() == 2) return Optional.empty();
    if (getent.exitValue() != 0) throw new IOException("getent passwd " + name + " failed with exit code " + getent.exitValue());
    return Optional.of(parse(out.lines().findFirst().orElse("")));
  }

  /** One passwd line: {@code name:password:uid:gid:gecos:home:shell}. */
  static OsAccount parse(String passwdLine) throws IOException {
    String[] f = passwdLine.split(":", -1);
    if (f.length < 7) throw new IOException("unreadable passwd entry '" + passwdLine + "'");
    try {
      return new OsAccount(f[0], Integer.parseInt(f[2]), Integer.parseInt(f[3]), f[5]);
    } catch (NumberFormatException e) {
      throw new IOException("unreadable passwd entry '" + passwdLine + "'", e);
    }
  }
}
