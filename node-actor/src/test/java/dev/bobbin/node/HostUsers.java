package dev.bobbin.node;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/** Accounts a test creates on the host with {@code useradd} and removes again; needs root. */
final class HostUsers implements AutoCloseable {
  private final List<String> created = new ArrayList<>();

  /** An ordinary account (uid from the host's UID_MIN up), with a group of its own. */
  String ordinary() throws IOException {
    return add("--user-group");
  }

  /** A system account (uid below UID_MIN). */
  String system() throws IOException {
    return add("--system", "--user-group");
  }

  private String add(String... options) throws IOException {
    String name = "bobbin-" + UUID.randomUUID().toString().substring(0, 8);
    List<String> cmd = new ArrayList<>(List.of("useradd", "--no-create-home", "--shell", "/bin/sh"));
    cmd.addAll(List.of(options));
    cmd.add(name);
    run(cmd);
    created.add(name);
    return name;
  }

  /** Whether this JVM runs as root, which creating users and switching to them needs. */
  static boolean runningAsRoot() {
    try {
      return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid") == 0;
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  static boolean onPath(String program) {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/sbin:/usr/bin").split(":")) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) return true;
    }
    return false;
  }

  /** The uid owning {@code p} itself (not what a link there points to). */
  static int owner(Path p) throws IOException {
    return (Integer) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS);
  }

  /** The mode of {@code p} itself, as {@code rwxr-x---}. */
  static String mode(Path p) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
  }

  static int uid(String user) throws IOException {
    return Integer.parseInt(run(List.of("id", "-u", user)).trim());
  }

  static int gid(String user) throws IOException {
    return Integer.parseInt(run(List.of("id", "-g", user)).trim());
  }

  private static String run(List<String> cmd) throws IOException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IOException(String.join(" ", cmd) + " failed: " + out);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted: " + cmd, e);
    }
    return out;
  }

  @Override
  public void close() throws IOException {
    IOException failure = null;
    for (String name : created) {
      try {
        run(List.of("userdel", name));
      } catch (IOException e) {
        failure = e;
      }
    }
    created.clear();
    if (failure != null) throw failure;
  }
}
