package dev.bobbin.node;

import static dev.bobbin.node.NmFixture.containerId;
import static dev.bobbin.node.NmFixture.newApplicationId;
import static org.assertj.core.api.Assertions.assertThat;
import static dev.bobbin.node.HostUsers.mode;
import static dev.bobbin.node.HostUsers.owner;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.bobbin.config.ContainerExecutorSettings;
import dev.bobbin.config.ContainerExecutorSettings.Kind;
import dev.bobbin.node.container.ContainerLayout;
import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.ContainerState;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.WirePaths;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A NodeManager running as root with the linux container executor: containers run as the users
 * who submitted them, in directories private to them, and the users container-executor's rules
 * refuse never get a process. Needs root (to create the test users and to switch to them).
 */
class ContainerRunAsUserIT {
  @TempDir static Path base;
  static HostUsers hostUsers;
  static String user;
  static String bannedUser;
  static String systemUser;
  static String allowedSystemUser;
  static NmFixture fx;
  static TestingRm rm;
  static NodeManager nm;
  static NmHttp http;

  @BeforeAll
  static void startNode() throws IOException {
    assumeTrue(HostUsers.runningAsRoot(), "running containers as other users needs the tests to run as root");
    assumeTrue(HostUsers.onPath("useradd") && HostUsers.onPath("userdel"), "creating test users needs useradd and userdel");
    hostUsers = new HostUsers();
    user = hostUsers.ordinary();
    bannedUser = hostUsers.ordinary();
    systemUser = hostUsers.system();
    allowedSystemUser = hostUsers.system();
    // A container's user must be able to pass through every directory above its own.
    Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
    fx = new NmFixture(base.resolve("work"));
    rm = fx.rm();
    Set<String> banned = new HashSet<>(Set.of("root", "yarn", "hdfs", "mapred", "bin"));
    banned.add(bannedUser);
    nm = fx.registeredNm(rm, new ContainerExecutorSettings(Kind.LINUX, banned, 1000, Set.of(allowedSystemUser)));
    http = new NmHttp(nm.httpAddress());
  }

  @AfterAll
  static void stopNode() throws IOException {
    if (fx != null) fx.close();
    if (hostUsers != null) hostUsers.close();
  }

  @Test
  void theContainerRunsAsItsUserInDirectoriesPrivateToIt() throws IOException {
    int uid = HostUsers.uid(user);
    int gid = HostUsers.gid(user);
    String app = newApplicationId();
    String id = containerId(app, 1);
    start(id, user, "ln -s /etc/shadow <LOG_DIR>/shadow", "echo $$ > <LOG_DIR>/pid",
        "echo \"$(id -un) $(id -u) $USER\"", "touch made-by-container", "exec sleep 60");
    ContainerLayout.Dirs dirs = new ContainerLayout(fx.workDir, nm.nodeId()).dirsFor(user, app, id);
    Path pidFile = dirs.logDir().resolve("pid");
    fx.eventually(() -> assertThat(pidFile).content().endsWith("\n"));
    long pid = Long.parseLong(Files.readString(pidFile).trim());

    String status = Files.readString(Path.of("/proc", Long.toString(pid), "status"));
    assertThat(status).containsPattern("(?m)^Uid:\\s+" + uid + "\\s+" + uid + "\\s+" + uid + "\\s+" + uid + "$")
        .containsPattern("(?m)^Gid:\\s+" + gid + "\\s+" + gid + "\\s+" + gid + "\\s+" + gid + "$");

    fx.eventually(() -> assertThat(dirs.workDir().resolve("made-by-container")).exists());
    for (Path p : List.of(dirs.workDir(), dirs.workDir().resolve("launch_container.sh"),
        dirs.workDir().resolve("made-by-container"), dirs.appLocalDir(), dirs.logDir(),
        dirs.logDir().resolve("stdout"), dirs.logDir().resolve("stderr"), dirs.logDir().resolve("launch_container.sh"),
        pidFile)) {
      assertThat(owner(p)).as(p.toString()).isEqualTo(uid);
    }
    assertThat(mode(dirs.workDir())).isEqualTo("rwx------");
    assertThat(mode(dirs.appLocalDir())).isEqualTo("rwxr-x---");
    assertThat(mode(dirs.logDir())).isEqualTo("rwxr-x---");
    // What leads to them is the node's, and lets only this user through.
    Path userCache = dirs.appLocalDir().getParent().getParent();
    for (Path p : List.of(userCache, userCache.resolve("appcache"), dirs.logDir().getParent())) {
      assertThat(owner(p)).as(p.toString()).isZero();
      assertThat((Integer) Files.getAttribute(p, "unix:gid", LinkOption.NOFOLLOW_LINKS)).as(p.toString()).isEqualTo(gid);
      assertThat(mode(p)).as(p.toString()).isEqualTo("rwx--x---");
    }

    // The node, as root, still serves the user's logs and stops the user's processes.
    fx.eventually(() -> assertThat(http.get(WirePaths.NM_CONTAINERS + "/" + id + "/logs/stdout").body())
        .isEqualTo(user + " " + uid + " " + user + "\n"));
    // A link the user put in its log dir does not make the node read for it.
    HttpResponse<String> shadow = http.get(WirePaths.NM_CONTAINERS + "/" + id + "/logs/shadow");
    assertThat(shadow.statusCode()).isEqualTo(404);
    assertThat(shadow.body()).doesNotContain("root:");
    http.stop(NmFixture.stopRequest(rm.containerToken(id, nm.nodeId(), user, Resource.of(256, 1), farFuture())));
    fx.eventually(() -> assertThat(rm.lastReported(id)).get()
        .returns(ContainerState.COMPLETE, ContainerStatus::state)
        .returns(ExitStatus.KILLED_BY_APPMASTER, ContainerStatus::exitStatus));
    fx.eventually(() -> assertThat(Path.of("/proc", Long.toString(pid))).doesNotExist());
  }

  @Test
  void theContainerSeesOnlyItsLaunchEnvironmentAndTheWhitelist() throws IOException {
    String app = newApplicationId();
    String id = containerId(app, 1);
    start(id, user, "env -0 > <LOG_DIR>/env");
    fx.eventually(() -> assertThat(rm.lastReported(id)).get().returns(0, ContainerStatus::exitStatus));
    ContainerLayout.Dirs dirs = new ContainerLayout(fx.workDir, nm.nodeId()).dirsFor(user, app, id);
    Set<String> seen = new TreeSet<>();
    for (String entry : Files.readString(dirs.logDir().resolve("env")).split("\0")) {
      if (!entry.isEmpty()) seen.add(entry.substring(0, entry.indexOf('=')));
    }
    Set<String> expected = new TreeSet<>(Set.of("PATH", "LANG", "TZ", "JAVA_HOME", "HOME", "USER", "LOGNAME",
        "PWD", "OLDPWD", "SHLVL", "_"));
    Matcher exported = Pattern.compile("(?m)^export ([A-Za-z_][A-Za-z0-9_]*)=")
        .matcher(Files.readString(dirs.logDir().resolve("launch_container.sh")));
    while (exported.find()) expected.add(exported.group(1));
    assertThat(System.getenv().keySet()).as("the NodeManager's environment has more").anyMatch(k -> !expected.contains(k));
    assertThat(expected).containsAll(seen);
    assertThat(Files.readString(dirs.logDir().resolve("env"))).contains("USER=" + user + "\0");
  }

  @Test
  void anAllowedSystemUserRunsBelowMinUserId() throws IOException {
    int uid = HostUsers.uid(allowedSystemUser);
    assertThat(uid).isLessThan(1000);
    String id = containerId(newApplicationId(), 1);
    start(id, allowedSystemUser, "id -u");
    fx.eventually(() -> assertThat(rm.lastReported(id)).get().returns(0, ContainerStatus::exitStatus));
    assertThat(http.get(WirePaths.NM_CONTAINERS + "/" + id + "/logs/stdout").body()).isEqualTo(uid + "\n");
  }

  @Test
  void aBannedUserIsRefusedWithContainerExecutorsDiagnostic() {
    assertRefused(bannedUser, "Requested user " + bannedUser + " is banned");
  }

  @Test
  void aSystemUserBelowMinUserIdIsRefused() throws IOException {
    int uid = HostUsers.uid(systemUser);
    assertRefused(systemUser,
        "Requested user " + systemUser + " is not whitelisted and has id " + uid + ", which is below the minimum allowed 1000");
  }

  @Test
  void rootAndUnknownUsersAreRefused() {
    assertRefused("root", "Running as root is not allowed");
    assertRefused("bobbin-nobody-here", "User bobbin-nobody-here not found on this node");
  }

  /** The start is accepted; the container then fails as YARN's does, and no process or directory is made for it. */
  private static void assertRefused(String who, String output) {
    String app = newApplicationId();
    String id = containerId(app, 1);
    start(id, who, "touch <LOG_DIR>/ran");
    fx.eventually(() -> assertThat(rm.lastReported(id)).get()
        .returns(ContainerState.COMPLETE, ContainerStatus::state)
        .returns(ExitStatus.INVALID, ContainerStatus::exitStatus)
        .extracting(ContainerStatus::diagnostics).asString()
        .isEqualTo("Application " + app + " initialization failed (exitCode=255) with output: " + output));
    ContainerLayout.Dirs dirs = new ContainerLayout(fx.workDir, nm.nodeId()).dirsFor(who, app, id);
    assertThat(dirs.logDir()).doesNotExist();
    assertThat(dirs.workDir()).doesNotExist();
  }

  private static void start(String containerId, String who, String... commands) {
    String token = rm.containerToken(containerId, nm.nodeId(), who, Resource.of(256, 1), farFuture());
    assertThat(http.start(NmFixture.startRequest(token, commands)).succeeded()).containsExactly(containerId);
  }

  private static long farFuture() {
    return System.currentTimeMillis() + 600_000;
  }
}
