package dev.bobbin.node;

import static dev.bobbin.node.NmFixture.containerId;
import static dev.bobbin.node.NmFixture.newApplicationId;
import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import dev.bobbin.node.localizer.TestArchives;
import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.ContainerState;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.LocalResource;
import dev.bobbin.protocol.LocalResource.Type;
import dev.bobbin.protocol.LocalResource.Visibility;
import dev.bobbin.protocol.WirePaths;
import dev.bobbin.protocol.node.ContainerManagement.StartContainerRequest;
import dev.bobbin.protocol.node.ContainerManagement.StartContainersRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Resources localized for real containers, from files and from an HTTP server on 127.0.0.1: a
 * plain file, a tar.gz and a zip, a changed source refused, and the PUBLIC cache shared by
 * containers and evicted by size (its target is 1 MB here).
 */
class LocalizationIT {
  private static final int HALF_MB = 600 * 1024;
  @TempDir static Path workDir;
  @TempDir static Path sources;
  static NmFixture fx;
  static TestingRm rm;
  static NodeManager nm;
  static NmHttp http;
  static FileServer server;

  @BeforeAll
  static void start() throws IOException {
    server = new FileServer(sources);
    fx = new NmFixture(workDir);
    rm = fx.rm();
    nm = fx.registeredNm(rm, ConfigFactory.parseString("bobbin.nm.localizer.cache.target-size-mb = 1"));
    http = new NmHttp(nm.httpAddress());
  }

  @AfterAll
  static void stop() {
    fx.close();
    server.close();
  }

  private static Path source(String name, byte[] content) throws IOException {
    return server.source(name, content);
  }

  private static LocalResource fromFile(Path file, Type type, Visibility visibility) throws IOException {
    return LocalResource.of(file.toUri().toString(), type, visibility, Files.size(file),
        Files.getLastModifiedTime(file).toMillis());
  }

  private static LocalResource fromHttp(Path file, Type type, Visibility visibility) throws IOException {
    return server.resource(file, type, visibility);
  }

  private static void start(Map<String, LocalResource> resources, String command, String... containerIds) {
    List<StartContainerRequest> requests = new ArrayList<>();
    for (String id : containerIds) {
      requests.add(new StartContainerRequest(rm.containerToken(id, nm.nodeId()),
          new ContainerLaunchContext(List.of(command), Map.of(), resources)));
    }
    assertThat(http.start(new StartContainersRequest(requests)).succeeded()).containsExactly(containerIds);
  }

  private static ContainerStatus completed(String id) {
    fx.eventually(() -> assertThat(rm.lastReported(id)).get().returns(ContainerState.COMPLETE, ContainerStatus::state));
    return rm.lastReported(id).orElseThrow();
  }

  private static String stdout(String id) {
    return http.get(WirePaths.NM_CONTAINERS + "/" + id + "/logs/stdout").body();
  }

  private static List<Path> cached(String fileName) throws IOException {
    try (Stream<Path> s = Files.walk(workDir)) {
      return s.filter(p -> p.getFileName().toString().equals(fileName) && p.getParent().getParent() != null
          && p.getParent().getParent().getFileName().toString().equals("filecache")).toList();
    }
  }

  @Test
  void aFileATarGzAndAZipAreLinkedIntoTheWorkingDirectory() throws IOException {
    Path text = source("notes.txt", "plain file\n".getBytes());
    Path tgz = TestArchives.tar(sources.resolve("tools.tar.gz"), true, "bin/tool.sh", "echo from the tar\n");
    Path zip = source("lib.zip", Files.readAllBytes(TestArchives.zip(sources.resolve("lib-src.zip"), "conf/a.txt", "from the zip\n")));
    Path served = source("served.txt", "from http\n".getBytes());
    String id = containerId(newApplicationId(), 1);
    start(Map.of(
            "notes.txt", fromFile(text, Type.FILE, Visibility.APPLICATION),
            "tools", fromHttp(tgz, Type.ARCHIVE, Visibility.PRIVATE),
            "lib", fromFile(zip, Type.ARCHIVE, Visibility.APPLICATION),
            "served.txt", fromHttp(served, Type.FILE, Visibility.PUBLIC)),
        "cat notes.txt && bash tools/bin/tool.sh && cat lib/conf/a.txt && cat served.txt", id);

    assertThat(completed(id).exitStatus()).isZero();
    assertThat(stdout(id)).isEqualTo("plain file\nfrom the tar\nfrom the zip\nfrom http\n");
  }

  @Test
  void aChangedSourceFailsTheContainerNamingTheResource() throws IOException {
    Path file = source("changing.txt", "v1".getBytes());
    LocalResource submitted = fromFile(file, Type.FILE, Visibility.APPLICATION);
    Files.setLastModifiedTime(file, FileTime.from(Instant.ofEpochSecond(1_800_000_000L)));
    String id = containerId(newApplicationId(), 1);
    start(Map.of("changing.txt", submitted), "cat changing.txt", id);

    ContainerStatus status = completed(id);
    assertThat(status.exitStatus()).isEqualTo(ExitStatus.INVALID);
    assertThat(status.diagnostics()).contains("Resource " + file.toUri() + " (changing.txt) failed to localize")
        .contains("Resource " + file.toUri() + " changed on src filesystem - expected: \"2023-11-14T22:13:20Z\"");

    Path served = source("served-changed.txt", "abc".getBytes());
    LocalResource wrongSize = LocalResource.of(fromHttp(served, Type.FILE, Visibility.PUBLIC).resource(), Type.FILE,
        Visibility.PUBLIC, 4, Files.getLastModifiedTime(served).toMillis());
    String other = containerId(newApplicationId(), 1);
    start(Map.of("s.txt", wrongSize), "cat s.txt", other);
    assertThat(completed(other).diagnostics()).contains("changed on src filesystem - expected size: 4 bytes, was: 3 bytes");
  }

  @Test
  void thePublicCacheIsSharedAndEvictedLeastRecentlyUsedAboveItsTarget() throws IOException {
    Path first = source("first.bin", new byte[HALF_MB]);
    Path second = source("second.bin", new byte[HALF_MB]);
    var useFirst = Map.of("f.bin", fromHttp(first, Type.FILE, Visibility.PUBLIC));
    String app1 = newApplicationId();
    String app2 = newApplicationId();
    String a = containerId(app1, 1);
    String b = containerId(app2, 1);
    start(useFirst, "wc -c < f.bin", a, b);
    assertThat(completed(a).exitStatus()).isZero();
    assertThat(completed(b).exitStatus()).isZero();
    assertThat(stdout(a).strip()).isEqualTo(Integer.toString(HALF_MB));
    assertThat(server.downloads("first.bin")).isEqualTo(1);
    fx.eventually(() -> assertThat(uncheckedCached("first.bin")).hasSize(1));

    String c = containerId(newApplicationId(), 1);
    start(Map.of("s.bin", fromHttp(second, Type.FILE, Visibility.PUBLIC)), "wc -c < s.bin", c);
    assertThat(completed(c).exitStatus()).isZero();
    fx.eventually(() -> assertThat(uncheckedCached("first.bin")).isEmpty());
    assertThat(cached("second.bin")).hasSize(1);

    String d = containerId(newApplicationId(), 1);
    start(useFirst, "wc -c < f.bin", d);
    assertThat(completed(d).exitStatus()).isZero();
    assertThat(server.downloads("first.bin")).isEqualTo(2);
  }

  private static List<Path> uncheckedCached(String name) {
    try {
      return cached(name);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
