package dev.bobbin.node.aux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.SettingsException;
import dev.bobbin.node.aux.FileServingService.Found;
import dev.bobbin.node.aux.FileServingService.Refused;
import dev.bobbin.protocol.Resource;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileServingServiceTest {
  private static final String APP = "application_1_0001";
  private static final String OTHER_APP = "application_1_0002";
  private static final String C1 = "container_1_0001_01_000001";
  private static final String SECRET = "a secret of enough bytes";

  @TempDir Path appDir;
  FileServingService files;

  @BeforeEach
  void setUp() throws Exception {
    files = new FileServingService();
    files.init(new ServiceSetup("files", ConfigFactory.parseString("class = x"), false));
  }

  private ContainerStart container(String app, String id, String secret) {
    return new ContainerStart(id, app, "alice", Resource.of(256, 1), appDir.resolve(id), appDir,
        secret == null ? null : secret.getBytes(StandardCharsets.UTF_8));
  }

  /** Starts {@code id} as the node does, and writes {@code name} into the directory it is given. */
  private Path offer(String app, String id, String secret, String name) throws Exception {
    ContainerStart c = container(app, id, secret);
    String dir = files.environment(c).get(FileServingService.DIR_ENV);
    files.initializeApplication(new ApplicationStart(app, "alice", secret.getBytes(StandardCharsets.UTF_8)));
    files.initializeContainer(c);
    Path file = Path.of(dir).resolve(name);
    Files.writeString(file, "part-0 of " + id);
    return file;
  }

  @Test
  void aContainersFileIsServedToTheHolderOfItsApplicationsSecret() throws Exception {
    Path written = offer(APP, C1, SECRET, "part-0");
    assertThat(written).startsWith(appDir);
    assertThat(files.find(APP, C1, "part-0", SECRET)).isEqualTo(new Found(written.toRealPath()));
  }

  @Test
  void callersWithoutTheSecretOrWithAnotherApplicationsAreRefused() throws Exception {
    offer(APP, C1, SECRET, "part-0");
    offer(OTHER_APP, "container_1_0002_01_000001", "the other application's secret", "part-0");

    assertThat(files.find(APP, C1, "part-0", null)).isInstanceOf(Refused.class)
        .extracting(l -> ((Refused) l).status()).isEqualTo(401);
    assertThat(files.find(APP, C1, "part-0", "the other application's secret"))
        .isEqualTo(new Refused(403, "The secret presented is not that of application " + APP));
    // Its own secret does not open another application's container either.
    assertThat(files.find(APP, "container_1_0002_01_000001", "part-0", SECRET)).isInstanceOf(Refused.class)
        .extracting(l -> ((Refused) l).status()).isEqualTo(404);
  }

  @Test
  void namesThatLeaveTheContainersDirectoryAreRefused() throws Exception {
    Path written = offer(APP, C1, SECRET, "part-0");
    Files.writeString(appDir.resolve("outside"), "not offered");
    Files.createSymbolicLink(written.resolveSibling("link"), appDir.resolve("outside"));

    for (String name : new String[] {"..", ".", "../outside", "a/b", "link"}) {
      assertThat(files.find(APP, C1, name, SECRET)).as(name).isInstanceOf(Refused.class)
          .extracting(l -> ((Refused) l).status()).isEqualTo(403);
    }
    assertThat(files.find(APP, C1, "missing", SECRET)).isInstanceOf(Refused.class)
        .extracting(l -> ((Refused) l).status()).isEqualTo(404);
  }

  @Test
  void anEndedApplicationsFilesAreNoLongerServed() throws Exception {
    offer(APP, C1, SECRET, "part-0");
    files.stopApplication(APP);
    assertThat(files.find(APP, C1, "part-0", SECRET)).isInstanceOf(Refused.class)
        .extracting(l -> ((Refused) l).status()).isEqualTo(404);
  }

  @Test
  void aShortSecretServesNothingAndGivesNoDirectory() throws Exception {
    ContainerStart c = container(APP, C1, "short");
    assertThat(files.environment(c)).isEmpty();
    files.initializeApplication(new ApplicationStart(APP, "alice", "short".getBytes(StandardCharsets.UTF_8)));
    files.initializeContainer(c);
    assertThat(files.find(APP, C1, "x", "short")).isInstanceOf(Refused.class)
        .extracting(l -> ((Refused) l).status()).isEqualTo(404);
    assertThat(appDir.resolve(FileServingService.DIR_NAME)).doesNotExist();
  }

  @Test
  void aContainerWithoutServiceDataGetsNoDirectory() throws Exception {
    offer(APP, C1, SECRET, "part-0");
    ContainerStart plain = container(APP, "container_1_0001_01_000002", null);
    assertThat(files.environment(plain)).isEmpty();
    files.initializeContainer(plain);
    assertThat(files.find(APP, plain.containerId(), "x", SECRET)).isInstanceOf(Refused.class)
        .extracting(l -> ((Refused) l).status()).isEqualTo(404);
  }

  @Test
  void refusesSettingsItDoesNotHaveAndContainersRunAsOtherUsers() {
    assertThatThrownBy(() -> new FileServingService().init(new ServiceSetup("files",
        ConfigFactory.parseString("class = x, port = 1"), false)))
        .isInstanceOf(SettingsException.class)
        .satisfies(e -> assertThat(((SettingsException) e).key()).isEqualTo("bobbin.nm.aux-service.files.port"));
    assertThatThrownBy(() -> new FileServingService().init(new ServiceSetup("files",
        ConfigFactory.parseString("class = x"), true)))
        .isInstanceOf(SettingsException.class)
        .hasMessageContaining("linux container executor");
  }
}
