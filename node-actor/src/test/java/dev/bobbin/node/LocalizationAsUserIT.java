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
import dev.bobbin.node.localizer.TestArchives;
import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.ContainerState;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.LocalResource;
import dev.bobbin.protocol.LocalResource.Type;
import dev.bobbin.protocol.LocalResource.Visibility;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.WirePaths;
import dev.bobbin.protocol.node.ContainerManagement.StartContainerRequest;
import dev.bobbin.protocol.node.ContainerManagement.StartContainersRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Localization for containers run as the users who submitted them (the linux executor, the
 * NodeManager running as root): every user reads the PUBLIC copies, which stay the node's; a
 * user's PRIVATE and APPLICATION copies are that user's and no other user reaches them; the links
 * in the working directory are the container's own; a source other users could not read is kept
 * out of the PUBLIC cache, and one the user could not read is not localized for it. Needs root (to create the test users and to switch to them).
 */
class LocalizationAsUserIT {
  @TempDir static Path base;
  static Path sources;
  static HostUsers hostUsers;
  static String alice;
  static String bob;
  static NmFixture fx;
  static TestingRm rm;
  static NodeManager nm;
  static NmHttp http;

  @BeforeAll
  static void startNode() throws IOException {
    assumeTrue(HostUsers.runningAsRoot(), "running containers as other users needs the tests to run as root");
    assumeTrue(HostUsers.onPath("useradd") && HostUsers.onPath("userdel"), "creating test users needs useradd and userdel");
    hostUsers = new HostUsers();
    alice = hostUsers.ordinary();
    bob = hostUsers.ordinary();
    Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
    sources = Files.createDirectories(base.resolve("sources"));
    fx = new NmFixture(base.resolve("work"));
    rm = fx.rm();
    nm = fx.registeredNm(rm, new ContainerExecutorSettings(Kind.LINUX, Set.of("root"), 1000, Set.of()));
    http = new NmHttp(nm.httpAddress());
  }

  @AfterAll
  static void stopNode() throws IOException {
    if (fx != null) fx.close();
    if (hostUsers != null) hostUsers.close();
  }

  @Test
  void aUsersCopiesAreItsOwnAndPublicOnesAreEveryonesToRead() throws IOException {
    var pub = resource(Files.writeString(sources.resolve("pub.txt"), "for all\n"), Type.FILE, Visibility.PUBLIC);
    var priv = resource(Files.writeString(sources.resolve("priv.txt"), "alice only\n"), Type.FILE, Visibility.PRIVATE);
    var app = resource(Files.writeString(sources.resolve("app.txt"), "this app\n"), Type.FILE, Visibility.APPLICATION);
    var tools = resource(TestArchives.tar(sources.resolve("tools.tar.gz"), true, "bin/tool.sh", "echo tool ran\n",
        "bin/run", "->tool.sh"), Type.ARCHIVE, Visibility.PRIVATE);
    String appId = newApplicationId();
    String id = containerId(appId, 1);
    start(id, alice, Map.of("pub.txt", pub, "priv.txt", priv, "app.txt", app, "tools", tools),
        "cat pub.txt priv.txt app.txt", "bash tools/bin/run", "exec sleep 60");
    fx.eventually(() -> assertThat(stdout(id)).isEqualTo("for all\nalice only\nthis app\ntool ran\n"));

    int uid = HostUsers.uid(alice);
    int gid = HostUsers.gid(alice);
    Path workDir = new ContainerLayout(fx.workDir, nm.nodeId()).dirsFor(alice, appId, id).workDir();
    for (String link : List.of("pub.txt", "priv.txt", "app.txt", "tools")) {
      assertThat(owner(workDir.resolve(link))).as(link + " is the container's link").isEqualTo(uid);
    }
    Path pubCopy = Files.readSymbolicLink(workDir.resolve("pub.txt"));
    assertThat(owner(pubCopy)).isZero();
    assertThat(mode(pubCopy)).isEqualTo("r-xr-xr-x");
    assertThat(mode(pubCopy.getParent())).isEqualTo("rwxr-xr-x");
    assertThat(mode(pubCopy.getParent().getParent())).as("filecache").isEqualTo("rwxr-xr-x");

    Path privCopy = Files.readSymbolicLink(workDir.resolve("priv.txt"));
    assertThat(owner(privCopy)).isEqualTo(uid);
    assertThat(mode(privCopy)).isEqualTo("r-x------");
    assertThat(mode(privCopy.getParent())).isEqualTo("rwx------");
    Path userFilecache = privCopy.getParent().getParent();
    assertThat(userFilecache.getParent().getFileName().toString()).isEqualTo(alice);
    for (Path p : List.of(userFilecache, userFilecache.getParent())) {
      assertThat(owner(p)).as(p.toString()).isZero();
      assertThat((Integer) Files.getAttribute(p, "unix:gid", LinkOption.NOFOLLOW_LINKS)).as(p.toString()).isEqualTo(gid);
      assertThat(mode(p)).as(p.toString()).isEqualTo("rwx--x---");
    }
    Path toolsCopy = Files.readSymbolicLink(workDir.resolve("tools"));
    assertThat(owner(toolsCopy.resolve("bin/tool.sh"))).isEqualTo(uid);
    assertThat(owner(toolsCopy.resolve("bin/run"))).isEqualTo(uid);

    Path appCopy = Files.readSymbolicLink(workDir.resolve("app.txt"));
    assertThat(appCopy).startsWith(workDir.getParent().resolve("filecache"));
    assertThat(owner(appCopy)).isEqualTo(uid);
    assertThat(owner(appCopy.getParent().getParent())).as("the application's filecache").isEqualTo(uid);

    // Another user shares the PUBLIC copy and cannot reach alice's own.
    String other = containerId(newApplicationId(), 1);
    start(other, bob, Map.of("pub.txt", pub), "cat pub.txt",
        "cat " + privCopy + " || echo private copy refused", "cat " + appCopy + " || echo application copy refused");
    fx.eventually(() -> assertThat(rm.lastReported(other)).get().returns(0, ContainerStatus::exitStatus));
    assertThat(stdout(other)).isEqualTo("for all\nprivate copy refused\napplication copy refused\n");
    Path bobsWorkDir = new ContainerLayout(fx.workDir, nm.nodeId())
        .dirsFor(bob, dev.bobbin.protocol.Ids.applicationIdOfContainer(other), other).workDir();
    assertThat(Files.readSymbolicLink(bobsWorkDir.resolve("pub.txt"))).isEqualTo(pubCopy);

    http.stop(NmFixture.stopRequest(rm.containerToken(id, nm.nodeId(), alice, Resource.of(256, 1), farFuture())));
    fx.eventually(() -> assertThat(rm.lastReported(id)).get()
        .returns(ExitStatus.KILLED_BY_APPMASTER, ContainerStatus::exitStatus));
  }

  @Test
  void aSourceOtherUsersCannotReadStaysOutOfThePublicCache() throws IOException {
    Path hiddenDir = Files.createDirectories(base.resolve("alice-home"));
    Files.setPosixFilePermissions(hiddenDir, PosixFilePermissions.fromString("rwx------"));
    var hidden = resource(Files.writeString(hiddenDir.resolve("key.txt"), "secret\n"), Type.FILE, Visibility.PUBLIC);
    String id = containerId(newApplicationId(), 1);
    start(id, alice, Map.of("key.txt", hidden), "cat key.txt");
    fx.eventually(() -> assertThat(rm.lastReported(id)).get()
        .returns(ContainerState.COMPLETE, ContainerStatus::state)
        .returns(ExitStatus.INVALID, ContainerStatus::exitStatus)
        .extracting(ContainerStatus::diagnostics).asString()
        .contains("Resource " + hidden.resource() + " is not publicly accessible and as such cannot be part of the"
            + " public cache."));
  }

  @Test
  void aUserGetsNoFileItCouldNotReadItself() throws IOException {
    Path rootOnly = Files.createDirectories(base.resolve("root-only"));
    Files.setPosixFilePermissions(rootOnly, PosixFilePermissions.fromString("rwx------"));
    Path secret = Files.writeString(rootOnly.resolve("secret.txt"), "root's\n");
    for (Visibility visibility : List.of(Visibility.PRIVATE, Visibility.APPLICATION)) {
      String id = containerId(newApplicationId(), 1);
      start(id, alice, Map.of("secret.txt", resource(secret, Type.FILE, visibility)), "cat secret.txt");
      fx.eventually(() -> assertThat(rm.lastReported(id)).get()
          .returns(ContainerState.COMPLETE, ContainerStatus::state)
          .returns(ExitStatus.INVALID, ContainerStatus::exitStatus)
          .extracting(ContainerStatus::diagnostics).asString()
          .startsWith("Resource " + secret.toUri() + " (secret.txt) failed to localize: " + secret
              + " cannot be read by " + alice + ": ")
          .contains("Permission denied"));
    }
  }

  private static LocalResource resource(Path file, Type type, Visibility visibility) throws IOException {
    return LocalResource.of(file.toUri().toString(), type, visibility, Files.size(file),
        Files.getLastModifiedTime(file).toMillis());
  }

  private static void start(String containerId, String who, Map<String, LocalResource> resources,
      String... commands) {
    String token = rm.containerToken(containerId, nm.nodeId(), who, Resource.of(256, 1), farFuture());
    var request = new StartContainersRequest(List.of(new StartContainerRequest(token,
        new ContainerLaunchContext(List.of(String.join(" && ", commands)), Map.of(), resources))));
    assertThat(http.start(request).succeeded()).containsExactly(containerId);
  }

  private static String stdout(String id) {
    return http.get(WirePaths.NM_CONTAINERS + "/" + id + "/logs/stdout").body();
  }

  private static long farFuture() {
    return System.currentTimeMillis() + 600_000;
  }
}
