package dev.bobbin.node;

import static dev.bobbin.node.NmFixture.containerId;
import static dev.bobbin.node.NmFixture.newApplicationId;
import static dev.bobbin.node.NmFixture.startRequest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.ContainerExecutorSettings;
import dev.bobbin.config.ContainerExecutorSettings.Kind;
import dev.bobbin.config.NmSettings;
import dev.bobbin.node.cgroups.CgroupMounts;
import dev.bobbin.node.container.ContainerLayout;
import dev.bobbin.node.container.ProcessFiles;
import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.ContainerState;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.Ids;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.WirePaths;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Containers in cgroup v1 memory and cpu hierarchies of the kernel this runs on, with real
 * processes: each in its own cgroups while it runs, with its limits; killed by the kernel beyond
 * its memory and ending with -104; its cgroups gone once it ended; and a restarted NodeManager
 * keeping the cgroups of the containers it takes back while removing what else an earlier run
 * left. Skipped where the NodeManager may not make cgroup v1 memory and cpu cgroups (not root, or
 * another layout), or where it would use cgroup v2 instead.
 */
class ContainerCgroupsIT {
  @TempDir Path workDir;
  NmFixture fx;
  TestingRm rm;
  Path memoryMount;
  Path cpuMount;
  /** Each test's own hierarchy, so that nothing of another NodeManager on this host is touched. */
  final String hierarchy = "bobbin-it-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
  final List<Long> started = new ArrayList<>();

  @BeforeEach
  void setUp() throws IOException {
    List<CgroupMounts.Mount> mounts = CgroupMounts.ofThisHost();
    for (CgroupMounts.Mount m : mounts) {
      if (m.v2()) {
        Set<String> controllers = Set.of(Files.readString(m.path().resolve("cgroup.controllers")).trim().split("\\s+"));
        assumeTrue(!controllers.containsAll(Set.of("memory", "cpu")), "this host offers cgroup v2 with memory and cpu");
      } else if (m.options().contains("memory")) {
        memoryMount = m.path();
      } else if (m.options().contains("cpu")) {
        cpuMount = m.path();
      }
    }
    assumeTrue(memoryMount != null && cpuMount != null, "no cgroup v1 memory and cpu hierarchies on this host");
    assumeTrue(Files.isWritable(memoryMount) && Files.isWritable(cpuMount), "cgroup v1 hierarchies not writable");
    fx = new NmFixture(workDir);
    rm = fx.rm();
  }

  @AfterEach
  void tearDown() throws IOException {
    if (fx == null) return;
    fx.close();
    for (long pid : started) {
      ProcessHandle.of(pid).ifPresent(p -> {
        p.destroyForcibly();
        p.onExit().join();
      });
    }
    for (Path mount : List.of(memoryMount, cpuMount)) removeCgroups(mount.resolve(hierarchy));
  }

  /** Empty cgroups go with rmdir, their control files with them: the deepest first. */
  private static void removeCgroups(Path top) throws IOException {
    if (!Files.isDirectory(top)) return;
    List<Path> dirs;
    try (Stream<Path> s = Files.walk(top)) {
      dirs = s.filter(Files::isDirectory).sorted(Comparator.comparingInt(Path::getNameCount).reversed()).toList();
    }
    for (Path d : dirs) Files.deleteIfExists(d);
  }

  private Config config(String more) {
    return ConfigFactory.parseString("bobbin.nm.cgroups { enabled = true, hierarchy = \"" + hierarchy + "\" }\n"
        + "bobbin.nm.container-monitor.interval = 200ms\n" + more).withFallback(ConfigFactory.load());
  }

  private Path memoryCgroup(NodeManager nm, String containerId) {
    return memoryMount.resolve(hierarchy).resolve(nm.nodeId().replace(':', '_')).resolve(containerId);
  }

  private Path cpuCgroup(NodeManager nm, String containerId) {
    return cpuMount.resolve(hierarchy).resolve(nm.nodeId().replace(':', '_')).resolve(containerId);
  }

  private String start(NmHttp http, NodeManager nm, Resource resource, String command) {
    String id = containerId(newApplicationId(), 1);
    String token = rm.containerToken(id, nm.nodeId(), "alice", resource, System.currentTimeMillis() + 600_000);
    assertThat(http.start(startRequest(token, command)).succeeded()).containsExactly(id);
    return id;
  }

  private static Set<Long> pids(Path procs) {
    try {
      return Set.copyOf(Files.readAllLines(procs).stream().map(Long::parseLong).toList());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void aContainerRunsInItsOwnCgroupsWithItsLimitsWhichGoWhenItEnds() throws IOException {
    NodeManager nm = fx.registeredNm(rm, config(""));
    NmHttp http = new NmHttp(nm.httpAddress());
    Path done = workDir.resolve("done");
    String id = start(http, nm, Resource.of(256, 2),
        "echo pid=$$; cat /proc/self/cgroup; until [ -e " + done + " ]; do sleep 0.1; done");
    Path memory = memoryCgroup(nm, id);
    Path cpu = cpuCgroup(nm, id);
    String path = "/" + hierarchy + "/" + nm.nodeId().replace(':', '_') + "/" + id;

    List<String> out = new ArrayList<>();
    fx.eventually(() -> {
      out.clear();
      out.addAll(http.get(WirePaths.NM_CONTAINERS + "/" + id + "/logs/stdout").body().lines().toList());
      assertThat(out).anyMatch(l -> l.startsWith("pid="));
      assertThat(out).anyMatch(l -> l.endsWith(":memory:" + path));
    });
    long pid = Long.parseLong(out.get(0).substring("pid=".length()));
    started.add(pid);
    // Its command ran in both of its cgroups, and its process is the one that joined them.
    assertThat(out).anyMatch(l -> l.matches("\\d+:[a-z,]*\\bcpu\\b[a-z,]*:" + Pattern.quote(path)));
    assertThat(pids(memory.resolve("cgroup.procs"))).contains(pid);
    assertThat(pids(cpu.resolve("cgroup.procs"))).contains(pid);
    assertThat(Files.readString(memory.resolve("memory.limit_in_bytes")).trim()).isEqualTo(Long.toString(256L << 20));
    assertThat(Files.readString(cpu.resolve("cpu.shares")).trim()).isEqualTo("2048");
    // Its usage is what its memory cgroup charges it.
    fx.eventually(() -> assertThat(http.getJson(WirePaths.NM_CONTAINERS + "/" + id).path("container")
        .path("physicalMemoryUsedMB").isNumber()).isTrue());

    Files.createFile(done);
    fx.eventually(() -> assertThat(rm.lastReported(id)).get()
        .returns(ContainerState.COMPLETE, ContainerStatus::state)
        .returns(ExitStatus.SUCCESS, ContainerStatus::exitStatus));
    fx.eventually(() -> {
      assertThat(memory).doesNotExist();
      assertThat(cpu).doesNotExist();
    });
  }

  @Test
  void aContainerBeyondItsMemoryIsKilledByTheKernelAndEndsWithMinus104SayingUsageAndLimit() {
    NodeManager nm = fx.registeredNm(rm, config(""));
    NmHttp http = new NmHttp(nm.httpAddress());
    // tail keeps the one endless line it is fed: it would hold 300 MB.
    String id = start(http, nm, Resource.of(128, 1), "head -c 314572800 /dev/zero | tail");

    fx.eventually(Duration.ofSeconds(60), () -> assertThat(rm.lastReported(id)).get()
        .returns(ContainerState.COMPLETE, ContainerStatus::state)
        .returns(ExitStatus.KILLED_EXCEEDED_PMEM, ContainerStatus::exitStatus));
    String diagnostics = rm.lastReported(id).orElseThrow().diagnostics();
    assertThat(diagnostics)
        .contains("containerID=" + id + "] ran beyond the 'PHYSICAL' memory limit of its cgroup: the kernel killed 1 "
            + "of its processes for memory. Peak usage: ")
        .contains("B of 128 MB physical memory used. ")
        .contains("Cgroup: " + memoryCgroup(nm, id))
        .contains("Exit code is 137.");
    fx.eventually(() -> assertThat(memoryCgroup(nm, id)).doesNotExist());
  }

  @Test
  void aRestartedNodeKeepsTheCgroupsOfTheContainersItTakesBackAndRemovesWhatElseWasLeft() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Path release = workDir.resolve("release");
    NodeManager first = nmOn(port, "enabled = true, supervised = true");
    NmHttp http = new NmHttp(first.httpAddress());
    String kept = start(http, first, Resource.of(256, 1), "until [ -e " + release + " ]; do sleep 0.1; done");
    Path keptWorkDir = new ContainerLayout(workDir, first.nodeId())
        .dirsFor("alice", Ids.applicationIdOfContainer(kept), kept).workDir();
    fx.eventually(() -> assertThat(ProcessFiles.pid(keptWorkDir, kept)).isPresent());
    long keptPid = ProcessFiles.pid(keptWorkDir, kept).getAsLong();
    started.add(keptPid);
    assertThat(pids(memoryCgroup(first, kept).resolve("cgroup.procs"))).contains(keptPid);
    first.close();

    // What an earlier run left: the cgroups of a container no state store names, a process still in them.
    String leftover = containerId(newApplicationId(), 9);
    Path leftMemory = Files.createDirectories(memoryCgroup(first, leftover));
    Path leftCpu = Files.createDirectories(cpuCgroup(first, leftover));
    Process orphan = new ProcessBuilder("sh", "-c", "echo $$ > " + leftMemory.resolve("cgroup.procs")
        + " && echo $$ > " + leftCpu.resolve("cgroup.procs") + " && exec sleep 120").start();
    started.add(orphan.pid());
    fx.eventually(() -> assertThat(pids(leftMemory.resolve("cgroup.procs"))).contains(orphan.pid()));

    NodeManager second = nmOn(port, "enabled = true");
    fx.eventually(() -> {
      assertThat(leftMemory).doesNotExist();
      assertThat(leftCpu).doesNotExist();
    });
    assertThat(orphan.isAlive()).isFalse();
    assertThat(pids(memoryCgroup(second, kept).resolve("cgroup.procs"))).contains(keptPid);
    assertThat(ProcessHandle.of(keptPid).map(ProcessHandle::isAlive)).hasValue(true);

    Files.createFile(release);
    fx.eventually(() -> assertThat(rm.lastReported(kept)).get()
        .returns(ContainerState.COMPLETE, ContainerStatus::state)
        .returns(ExitStatus.SUCCESS, ContainerStatus::exitStatus));
    fx.eventually(() -> assertThat(memoryCgroup(second, kept)).doesNotExist());
  }

  @Test
  void aContainerRunAsItsUserJoinsItsCgroupsBeforeItTakesTheUsersIdentity() throws IOException {
    assumeTrue(ProcessHandle.current().info().user().filter(u -> u.equals("root")).isPresent(),
        "running containers as other users needs root");
    Files.setPosixFilePermissions(workDir, PosixFilePermissions.fromString("rwxr-xr-x"));
    try (HostUsers users = new HostUsers()) {
      String user = users.ordinary();
      NodeManager nm = NodeManager.start(fx.settings(List.of(rm.url())), config(""),
          new ContainerExecutorSettings(Kind.LINUX, Set.of("root"), 1000, Set.of()));
      fx.closeables.add(0, nm);
      fx.eventually(() -> assertThat(rm.heartbeats).isNotEmpty());
      String id = containerId(newApplicationId(), 1);
      String token = rm.containerToken(id, nm.nodeId(), user, Resource.of(128, 1), System.currentTimeMillis() + 600_000);
      assertThat(new NmHttp(nm.httpAddress()).start(startRequest(token, "id -u; cat /proc/self/cgroup")).succeeded())
          .containsExactly(id);

      fx.eventually(() -> assertThat(rm.lastReported(id)).get()
          .returns(ContainerState.COMPLETE, ContainerStatus::state)
          .returns(ExitStatus.SUCCESS, ContainerStatus::exitStatus));
      Path stdout = new ContainerLayout(workDir, nm.nodeId())
          .dirsFor(user, Ids.applicationIdOfContainer(id), id).logDir().resolve("stdout");
      List<String> out = Files.readAllLines(stdout);
      assertThat(out.get(0)).isEqualTo(Integer.toString(HostUsers.uid(user)));
      assertThat(out).anyMatch(l -> l.endsWith(":memory:/" + hierarchy + "/" + nm.nodeId().replace(':', '_') + "/" + id));
      fx.eventually(() -> assertThat(memoryCgroup(nm, id)).doesNotExist());
    }
  }

  private NodeManager nmOn(int port, String recovery) {
    NmSettings s = fx.settings(List.of(rm.url()));
    NmSettings fixed = new NmSettings(s.rmAddresses(), s.hostname(), port, s.memoryMb(), s.vcores(), s.rack(),
        s.workDir(), s.heartbeatInterval(), s.killGrace(), s.http(), s.nodeCredentialFile());
    NodeManager nm = NodeManager.start(fixed, config("bobbin.nm.recovery { " + recovery
        + ", process-check-interval = 100ms }"));
    fx.closeables.add(0, nm);
    fx.eventually(() -> assertThat(rm.heartbeats).isNotEmpty());
    return nm;
  }
}
