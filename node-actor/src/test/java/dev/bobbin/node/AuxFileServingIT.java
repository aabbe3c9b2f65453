package dev.bobbin.node;

import static dev.bobbin.node.NmFixture.containerId;
import static dev.bobbin.node.NmFixture.newApplicationId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.SettingsException;
import dev.bobbin.node.aux.FileServingService;
import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.ContainerState;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.node.ContainerManagement.StartContainerRequest;
import dev.bobbin.protocol.node.ContainerManagement.StartContainersRequest;
import dev.bobbin.protocol.node.ContainerManagement.StartContainersResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file-serving auxiliary service on real processes: one container of an application writes a
 * file into the directory its NodeManager gives it, and a second container of the application
 * fetches it over HTTP from that NodeManager with the application's secret; callers without it are
 * refused, and the file goes with the application.
 */
class AuxFileServingIT {
  private static final Config FILES = ConfigFactory.parseString("""
      bobbin.nm {
        delete-debug-delay = 0s
        aux-services = [files]
        aux-service.files.class = "dev.bobbin.node.aux.FileServingService"
      }""");
  private static final String SECRET = "the application's secret";
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  /** A container's fetch: GET the URL with the secret, write the body to a file, exit 1 unless 200. */
  private static final String FETCH = """
      import java.net.URI;
      import java.net.http.*;
      import java.nio.file.Path;
      class Fetch {
        public static void main(String[] a) throws Exception {
          var r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(a[0]))
              .header("%s", System.getenv("FILES_SECRET")).build(), HttpResponse.BodyHandlers.ofFile(Path.of(a[1])));
          System.exit(r.statusCode() == 200 ? 0 : 1);
        }
      }
      """.formatted(FileServingService.SECRET_HEADER);

  @TempDir Path tools;
  @RegisterExtension final NmFixture fx = NmFixture.perTest();
  final Path workDir = fx.workDir;

  private static Map<String, String> serviceData(String secret) {
    return Map.of("files", Base64.getEncoder().encodeToString(secret.getBytes(StandardCharsets.UTF_8)));
  }

  private static StartContainersRequest start(String token, Map<String, String> env, Map<String, String> serviceData,
      String command) {
    return new StartContainersRequest(List.of(new StartContainerRequest(token,
        new ContainerLaunchContext(List.of(command), env, Map.of(), serviceData))));
  }

  private static HttpResponse<String> fetch(NodeManager nm, String path, String secret)
      throws IOException, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://" + nm.httpAddress() + path));
    if (secret != null) b.header(FileServingService.SECRET_HEADER, secret);
    return HTTP.send(b.GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private void awaitSuccess(TestingRm rm, String containerId) {
    fx.eventually(java.time.Duration.ofSeconds(30), () -> assertThat(rm.lastReported(containerId)).get()
        .returns(ContainerState.COMPLETE, ContainerStatus::state)
        .returns(0, ContainerStatus::exitStatus));
  }

  @Test
  void aContainerFetchesAnotherContainersFileFromItsNodeManager() throws Exception {
    TestingRm rm = fx.rm();
    NodeManager nm = fx.registeredNm(rm, FILES);
    NmHttp http = new NmHttp(nm.httpAddress());
    String app = newApplicationId();
    String writer = containerId(app, 1);
    String reader = containerId(app, 2);

    StartContainersResponse started = http.start(start(rm.containerToken(writer, nm.nodeId()), Map.of(),
        serviceData(SECRET), "echo \"output of $CONTAINER_ID\" > \"$BOBBIN_SERVED_FILES_DIR/part-0\""));
    assertThat(started.succeeded()).containsExactly(writer);
    assertThat(started.servicesMetaData()).containsEntry("files",
        Base64.getEncoder().encodeToString("/aux/files/".getBytes(StandardCharsets.UTF_8)));
    awaitSuccess(rm, writer);

    Path fetchSource = Files.writeString(tools.resolve("Fetch.java"), FETCH);
    String url = "http://" + nm.httpAddress() + "/aux/files/" + app + "/" + writer + "/part-0";
    assertThat(http.start(start(rm.containerToken(reader, nm.nodeId()), Map.of("FILES_SECRET", SECRET),
        serviceData(SECRET), "\"$JAVA_HOME/bin/java\" '" + fetchSource + "' '" + url + "' fetched")).succeeded())
        .containsExactly(reader);
    awaitSuccess(rm, reader);
    Path readerDir = workDir.resolve(nm.nodeId().replace(':', '_')).resolve("usercache/alice/appcache/" + app);
    assertThat(readerDir.resolve(reader).resolve("fetched")).hasContent("output of " + writer);

    // The test as a caller: with the secret, without it, and with another application's.
    String path = "/aux/files/" + app + "/" + writer + "/part-0";
    assertThat(fetch(nm, path, SECRET).body()).isEqualTo("output of " + writer + "\n");
    HttpResponse<String> anonymous = fetch(nm, path, null);
    assertThat(anonymous.statusCode()).isEqualTo(401);
    assertThat(http.readTree(anonymous.body()).at("/RemoteException/exception").asText())
        .isEqualTo("AuthenticationException");
    String otherApp = newApplicationId();
    String otherContainer = containerId(otherApp, 1);
    http.start(start(rm.containerToken(otherContainer, nm.nodeId()), Map.of(),
        serviceData("another application's secret"), "true"));
    awaitSuccess(rm, otherContainer);
    HttpResponse<String> stranger = fetch(nm, path, "another application's secret");
    assertThat(stranger.statusCode()).isEqualTo(403);
    assertThat(http.readTree(stranger.body()).at("/RemoteException/exception").asText())
        .isEqualTo("AccessControlException");
    assertThat(fetch(nm, "/aux/files/" + app + "/" + writer + "/..%2F" + reader + "%2Ffetched", SECRET).statusCode())
        .isEqualTo(403);

    rm.applicationsToCleanup.add(app);

    fx.eventually(() -> assertThat(readerDir).doesNotExist());
    assertThat(fetch(nm, path, SECRET).statusCode()).isEqualTo(404);
  }

  @Test
  void serviceDataForAServiceTheNodeDoesNotRunFailsTheStart() {
    TestingRm rm = fx.rm();
    NodeManager nm = fx.registeredNm(rm);
    String id = containerId(newApplicationId(), 1);
    StartContainersResponse answer = new NmHttp(nm.httpAddress())
        .start(start(rm.containerToken(id, nm.nodeId()), Map.of(), serviceData(SECRET), "true"));
    assertThat(answer.succeeded()).isEmpty();
    assertThat(answer.failed()).singleElement().satisfies(f -> {
      assertThat(f.exception()).isEqualTo("InvalidAuxServiceException");
      assertThat(f.message()).contains("The auxService:files does not exist");
    });
  }

  @Test
  void aServiceClassThatCannotBeLoadedStopsTheNodeManagerAtStart() {
    TestingRm rm = fx.rm();
    assertThatThrownBy(() -> fx.registeredNm(rm, ConfigFactory.parseString("""
        bobbin.nm.aux-services = [files]
        bobbin.nm.aux-service.files.class = "com.example.NoSuchService\"""")))
        .isInstanceOf(SettingsException.class)
        .hasMessageStartingWith("bobbin.nm.aux-service.files.class: cannot load class com.example.NoSuchService");
  }
}
