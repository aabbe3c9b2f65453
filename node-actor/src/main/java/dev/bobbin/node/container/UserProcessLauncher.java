package dev.bobbin.node.container;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs each container as its user, as YARN's LinuxContainerExecutor does, from a NodeManager
 * running as root. The user is admitted by {@link ContainerUsers}. The NodeManager only ever
 * writes in directories the user cannot change: it makes the application's local dir and the
 * container's log dir (with {@code launch_container.sh} and empty stdout and stderr, as YARN keeps
 * a copy of the script with the logs) and hands them to the user, mode 0750 (the user and the
 * NodeManager's group); the localizer moves an APPLICATION resource's finished copy into the
 * application's dir without following links. Everything else inside the user's own directories is
 * done as the user: the
 * process starts as {@code setsid setpriv --reuid --regid --init-groups bash}, one pid from fork to
 * the container's shell, which opens its stdout and stderr, makes its work dir (mode 0700), copies
 * the script there, links the container's localized resources into it and runs it, with only
 * {@link #INHERITED_ENV} of the NodeManager's environment.
 */
public final class UserProcessLauncher implements ProcessLauncher {
  /**
   * Run as the user: opens stdout and stderr, makes the work dir and copies the script there, links
   * each localized resource into it (pairs of target and name after the fourth argument), and runs
   * the script.
   */
  private static final String PREPARE_AND_RUN = "exec >>\"$1\" 2>>\"$2\" </dev/null"
      + " && mkdir -m 700 -- \"$3\" && cp -- \"$4\" \"$3\"/" + LaunchSpec.SCRIPT_NAME
      + " && cd -- \"$3\" && shift 4"
      + " && while [ $# -ge 2 ]; do ln -s -- \"$1\" \"$2\" || exit 1; shift 2; done"
      + " && exec bash " + LaunchSpec.SCRIPT_NAME;
  /**
   * What a container may see of the NodeManager's own environment, as YARN's {@code
   * yarn.nodemanager.env-whitelist}; everything else it needs is in its launch script. The rest of
   * a root NodeManager's environment is not the user's to read.
   */
  static final Set<String> INHERITED_ENV = Set.of("PATH", "LANG", "TZ", "JAVA_HOME");
  private static final OpenOption[] NEW_FILE = {StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, NOFOLLOW_LINKS};

  private final ContainerUsers users;
  private final Placement placement;

  public UserProcessLauncher(ContainerUsers users) {
    this(users, Placement.NONE);
  }

  private UserProcessLauncher(ContainerUsers users, Placement placement) {
    this.users = users;
    this.placement = placement;
  }

  /** The placement runs as root, before {@code setpriv} takes the user's identity. */
  @Override
  public ProcessLauncher placing(Placement placement) {
    return new UserProcessLauncher(users, placement);
  }

  @Override
  public ContainerProcess launch(LaunchSpec spec) throws IOException {
    return launch(spec, prepareApplicationDirs(spec), Map.of());
  }

  /**
   * Admits the container's user and makes the directories that lead to its work and log
   * directories, owned as described above; the application's resources are localized into them
   * before the launch.
   */
  public OsAccount prepareApplicationDirs(LaunchSpec spec) throws IOException {
    OsAccount account = users.admit(spec.user(), spec.applicationId());
    ContainerLayout.UserDirs dirs = ContainerLayout.userDirs(spec);
    for (Path d : dirs.shared()) nodeOwnedDir(d, -1, "rwxr-xr-x");
    for (Path d : dirs.passThrough()) nodeOwnedDir(d, account.gid(), "rwx--x---");
    userOwnedDir(dirs.appDir(), account);
    return account;
  }

  /**
   * Launches a container whose directories {@link #prepareApplicationDirs} made.
   *
   * @param links what the container's user links into its work dir as it starts, by name
   */
  public ContainerProcess launch(LaunchSpec spec, OsAccount account, Map<String, Path> links) throws IOException {
    ContainerLayout.UserDirs dirs = ContainerLayout.userDirs(spec);
    try {
      Files.createDirectory(spec.logDir());
    } catch (FileAlreadyExistsException e) {
      throw new IOException("Container log directory " + spec.logDir() + " already exists", e);
    }
    Path script = spec.logDir().resolve(LaunchSpec.SCRIPT_NAME);
    Path stdout = spec.logDir().resolve(LaunchSpec.STDOUT);
    Path stderr = spec.logDir().resolve(LaunchSpec.STDERR);
    Files.write(script, LaunchScript.render(spec).getBytes(StandardCharsets.UTF_8), NEW_FILE);
    Files.write(stdout, new byte[0], NEW_FILE);
    Files.write(stderr, new byte[0], NEW_FILE);
    handOver(script, account, "rwxr-x---");
    handOver(stdout, account, "rw-r-----");
    handOver(stderr, account, "rw-r-----");
    handOver(spec.logDir(), account, "rwxr-x---");

    List<String> command = new ArrayList<>(List.of(
        "setsid", "setpriv", "--reuid=" + account.uid(), "--regid=" + account.gid(), "--init-groups", "--",
        "bash", "-c", PREPARE_AND_RUN, "bobbin-container",
        stdout.toString(), stderr.toString(), spec.workDir().toString(), script.toString()));
    links.forEach((name, target) -> {
      command.add(target.toString());
      command.add(name);
    });
    ProcessBuilder pb = new ProcessBuilder(Placement.prefixed(placement.prepare(spec), command));
    Map<String, String> env = pb.environment();
    env.keySet().retainAll(INHERITED_ENV);
    env.put("HOME", account.home());
    env.put("USER", account.name());
    env.put("LOGNAME", account.name());
    pb.directory(dirs.appDir().toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.DISCARD);
    return new LocalContainerProcess(pb.start(), true);
  }

  /** A directory the NodeManager owns, made when missing; a gid of -1 keeps its group. */
  private static void nodeOwnedDir(Path dir, int gid, String mode) throws IOException {
    createIfMissing(dir);
    Files.setAttribute(dir, "unix:uid", 0, NOFOLLOW_LINKS);
    if (gid >= 0) Files.setAttribute(dir, "unix:gid", gid, NOFOLLOW_LINKS);
    setMode(dir, mode);
  }

  private static void userOwnedDir(Path dir, OsAccount account) throws IOException {
    createIfMissing(dir);
    handOver(dir, account, "rwxr-x---");
  }

  private static void createIfMissing(Path dir) throws IOException {
    try {
      Files.createDirectory(dir);
    } catch (FileAlreadyExistsException e) {
      // A directory made earlier; a link or a file in its place is refused below.
    }
    if (!Files.isDirectory(dir, NOFOLLOW_LINKS)) throw new IOException(dir + " is not a directory");
  }

  /** Owner and mode of the entry itself, never of what a link in its place points to. */
  private static void handOver(Path p, OsAccount account, String mode) throws IOException {
    Files.setAttribute(p, "unix:uid", account.uid(), NOFOLLOW_LINKS);
    setMode(p, mode);
  }

  private static void setMode(Path p, String mode) throws IOException {
    Files.getFileAttributeView(p, PosixFileAttributeView.class, NOFOLLOW_LINKS)
        .setPermissions(PosixFilePermissions.fromString(mode));
  }
}
