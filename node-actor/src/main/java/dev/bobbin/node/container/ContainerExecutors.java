package dev.bobbin.node.container;

import dev.bobbin.config.ContainerExecutorSettings;
import dev.bobbin.config.SettingsException;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Picks the launcher the settings ask for, checking at start what the linux executor needs (root,
 * {@code setsid} and {@code setpriv}, a work dir every user can reach), and says in the log whom
 * containers run as.
 */
public final class ContainerExecutors {
  private static final Logger LOG = LoggerFactory.getLogger(ContainerExecutors.class);
  static final String WORK_DIR_KEY = "bobbin.nm.work-dir";
  static final String EXECUTOR_KEY = "bobbin.nm.container-executor";

  /** Who this process is: its effective uid and user name. */
  public record Self(int uid, String name) {
    public static Self current() {
      try {
        // /proc/self belongs to the process's effective user.
        return new Self((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid"), System.getProperty("user.name"));
      } catch (IOException | UnsupportedOperationException e) {
        return new Self(-1, System.getProperty("user.name"));
      }
    }

    boolean isRoot() {
      return uid == 0;
    }
  }

  private ContainerExecutors() {}

  public static ProcessLauncher launcher(ContainerExecutorSettings settings, Path workDir) {
    return launcher(settings, List.of(workDir), Self.current());
  }

  /** @param dirs every directory containers' work and log directories go under */
  public static ProcessLauncher launcher(ContainerExecutorSettings settings, List<Path> dirs) {
    return launcher(settings, dirs, Self.current());
  }

  static ProcessLauncher launcher(ContainerExecutorSettings settings, Path workDir, Self self) {
    return launcher(settings, List.of(workDir), self);
  }

  static ProcessLauncher launcher(ContainerExecutorSettings settings, List<Path> dirs, Self self) {
    if (settings.kind() == ContainerExecutorSettings.Kind.DEFAULT) {
      LOG.info("Containers run as the NodeManager's user {} ({} = default{})", self.name(), EXECUTOR_KEY,
          self.isRoot() ? "; linux runs each as the user who submitted it" : "");
      return new LocalProcessLauncher();
    }
    if (!self.isRoot()) {
      throw new SettingsException(EXECUTOR_KEY, "linux runs containers as the users who submitted them and needs"
          + " the NodeManager to run as root; it runs as " + self.name()
          + ". Start it as root, or use default to run containers as " + self.name());
    }
    for (String tool : List.of("setsid", "setpriv")) {
      if (!onPath(tool)) {
        throw new SettingsException(EXECUTOR_KEY, "linux needs " + tool + " (util-linux) on the PATH to start containers");
      }
    }
    dirs.forEach(ContainerExecutors::prepareWorkDir);
    LOG.info("Containers run as the users who submitted them ({} = linux; banned users {}, min user id {},"
            + " allowed system users {})", EXECUTOR_KEY, new TreeSet<>(settings.bannedUsers()), settings.minUserId(),
        new TreeSet<>(settings.allowedSystemUsers()));
    return new UserProcessLauncher(new ContainerUsers(settings, OsAccount::lookup));
  }

  /**
   * Makes the work dir (mode 0755) and checks that every directory above it lets other users
   * through: a container's user must reach its own directories below it.
   */
  static void prepareWorkDir(Path workDir) {
    Path dir = workDir.toAbsolutePath().normalize();
    try {
      if (!Files.isDirectory(dir)) {
        Files.createDirectories(dir);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
      }
      for (Path p = dir.toRealPath(); p != null; p = p.getParent()) {
        if (!Files.getPosixFilePermissions(p).contains(PosixFilePermission.OTHERS_EXECUTE)) {
          throw new SettingsException(WORK_DIR_KEY, "containers run as their users cannot reach " + dir + ": " + p
              + " does not let other users through (mode o+x). Choose a work dir whose parents do, or chmod o+x " + p);
        }
      }
    } catch (IOException e) {
      throw new SettingsException(WORK_DIR_KEY, "cannot prepare " + dir + " for containers run as their users: " + e);
    }
  }

  static boolean onPath(String program) {
    String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    for (String dir : path.split(File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) return true;
    }
    return false;
  }
}
