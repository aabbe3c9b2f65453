package dev.bobbin.node.aux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.AuxServiceSettings;
import dev.bobbin.config.SettingsException;
import dev.bobbin.protocol.Resource;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AuxServicesTest {
  private static final ContainerStart CONTAINER = new ContainerStart("container_1_0001_01_000002",
      "application_1_0001", "alice", Resource.of(512, 1), Path.of("/w/app/c"), Path.of("/w/app"), null);

  /** Records what it is told, and fails at whatever {@code failAt} names. */
  static class Recording implements AuxiliaryService {
    final List<String> heard = new ArrayList<>();
    String failAt = "";
    Map<String, String> env = Map.of();

    @Override
    public void init(ServiceSetup setup) {
      heard.add("init " + setup.name());
    }

    @Override
    public void start() {
      heard.add("start");
      if (failAt.equals("start")) throw new IllegalStateException("port taken");
    }

    @Override
    public void stop() {
      heard.add("stop");
    }

    @Override
    public byte[] metadata() {
      return "meta".getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void initializeApplication(ApplicationStart app) {
      record("app init " + app.applicationId() + " " + app.user() + " " + new String(app.serviceData(),
          StandardCharsets.UTF_8));
    }

    @Override
    public void stopApplication(String applicationId) {
      record("app stop " + applicationId);
    }

    @Override
    public Map<String, String> environment(ContainerStart container) {
      return env;
    }

    @Override
    public void initializeContainer(ContainerStart container) {
      record("container init " + container.containerId() + " data " + (container.serviceData() == null ? "none"
          : new String(container.serviceData(), StandardCharsets.UTF_8)));
    }

    @Override
    public void stopContainer(ContainerStart container) {
      record("container stop " + container.containerId());
    }

    private void record(String event) {
      heard.add(event);
      if (!failAt.isEmpty() && event.startsWith(failAt)) throw new IllegalStateException("broken " + event);
    }
  }

  public static class FailsToSetUp implements AuxiliaryService {
    @Override
    public void init(ServiceSetup setup) throws Exception {
      throw new java.io.IOException("no such directory /srv/files");
    }
  }

  public static class NoPublicConstructor implements AuxiliaryService {
    private NoPublicConstructor() {}

    @Override
    public void init(ServiceSetup setup) {}
  }

  private static String b64(String s) {
    return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }

  private static AuxServices services(Recording a, Recording b) {
    Map<String, AuxiliaryService> m = new LinkedHashMap<>();
    m.put("a", a);
    m.put("b", b);
    return AuxServices.of(m);
  }

  private static AuxServices load(String hocon) {
    return AuxServices.load(AuxServiceSettings.from(ConfigFactory.parseString(hocon)),
        AuxServicesTest.class.getClassLoader(), false);
  }

  @Test
  void loadsAndSetsUpTheConfiguredClasses() {
    AuxServices loaded = load("""
        bobbin.nm.aux-services = [files]
        bobbin.nm.aux-service.files.class = dev.bobbin.node.aux.FileServingService""");
    assertThat(loaded.names()).containsExactly("files");
    loaded.start();
    assertThat(loaded.metadata()).containsEntry("files", b64("/aux/files/"));
    assertThat(loaded.routes()).containsOnlyKeys("files");
    loaded.stop();
  }

  @Test
  void aServiceThatCannotBeMadeStopsTheStartNamingItsClassKey() {
    assertRefused("dev.bobbin.node.aux.NoSuchService", "cannot load class dev.bobbin.node.aux.NoSuchService");
    assertRefused("java.lang.String", "java.lang.String is not an dev.bobbin.node.aux.AuxiliaryService");
    assertRefused(NoPublicConstructor.class.getName(), "needs a public constructor taking nothing");
    assertRefused(FailsToSetUp.class.getName(), "could not be set up: java.io.IOException: no such directory");
  }

  private static void assertRefused(String className, String problem) {
    assertThatThrownBy(() -> load("bobbin.nm.aux-services = [svc]\nbobbin.nm.aux-service.svc.class = \""
        + className + "\""))
        .isInstanceOf(SettingsException.class)
        .hasMessageContaining(problem)
        .satisfies(e -> assertThat(((SettingsException) e).key()).isEqualTo("bobbin.nm.aux-service.svc.class"));
  }

  @Test
  void aServiceThatFailsToStartStopsTheOnesStartedBeforeIt() {
    Recording a = new Recording();
    Recording b = new Recording();
    b.failAt = "start";
    assertThatThrownBy(services(a, b)::start).isInstanceOf(SettingsException.class)
        .hasMessageContaining("the service 'b' failed to start: java.lang.IllegalStateException: port taken")
        .satisfies(e -> assertThat(((SettingsException) e).key()).isEqualTo("bobbin.nm.aux-service.b.class"));
    assertThat(a.heard).containsExactly("start", "stop");
  }

  @Test
  void startedServicesGiveTheirMetadataInBase64AndStopInReverse() {
    List<String> order = new ArrayList<>();
    Recording a = new Recording() {
      @Override
      public void stop() {
        order.add("a");
      }
    };
    Recording b = new Recording() {
      @Override
      public void stop() {
        order.add("b");
      }
    };
    AuxServices aux = services(a, b);
    aux.start();
    assertThat(aux.metadata()).containsOnly(Map.entry("a", b64("meta")), Map.entry("b", b64("meta")));
    aux.stop();
    assertThat(order).containsExactly("b", "a");
  }

  @Test
  void aContainerIsAnnouncedToEveryServiceAndItsApplicationOnlyToThoseWithData() {
    Recording a = new Recording();
    Recording b = new Recording();
    AuxServices aux = services(a, b);

    aux.containerAccepted(CONTAINER, Map.of("b", b64("secret")));
    aux.containerStopped(CONTAINER, Map.of("b", b64("secret")));
    aux.applicationStopped("application_1_0001");

    assertThat(a.heard).containsExactly("container init container_1_0001_01_000002 data none",
        "container stop container_1_0001_01_000002", "app stop application_1_0001");
    assertThat(b.heard).containsExactly("app init application_1_0001 alice secret",
        "container init container_1_0001_01_000002 data secret",
        "container stop container_1_0001_01_000002", "app stop application_1_0001");
  }

  @Test
  void aServiceThatThrowsOnAnEventDoesNotKeepTheOthersFromHearingIt() {
    Recording a = new Recording();
    Recording b = new Recording();
    a.failAt = "container init";
    AuxServices aux = services(a, b);

    aux.containerAccepted(CONTAINER, Map.of("a", b64("x")));

    assertThat(a.heard).containsExactly("app init application_1_0001 alice x",
        "container init container_1_0001_01_000002 data x");
    assertThat(b.heard).containsExactly("container init container_1_0001_01_000002 data none");
  }

  @Test
  void serviceDataForAServiceTheNodeDoesNotRunIsRefused() {
    AuxServices aux = services(new Recording(), new Recording());
    assertThat(aux.refusal(Map.of("a", b64("x")))).isNull();
    assertThat(aux.refusal(Map.of())).isNull();
    assertThat(aux.refusal(Map.of("mapreduce_shuffle", b64("x"), "a", b64("y"))))
        .isEqualTo("The auxService:mapreduce_shuffle does not exist on this NodeManager (it runs a,b)");
    assertThat(AuxServices.none().refusal(Map.of("files", b64("x"))))
        .isEqualTo("The auxService:files does not exist on this NodeManager (it runs none)");
    assertThat(aux.refusal(Map.of("a", "!!"))).startsWith("The service data for a is not base64");
  }

  @Test
  void theFirstServiceToNameAnEnvironmentEntryGivesIt() {
    Recording a = new Recording();
    Recording b = new Recording();
    a.env = Map.of("DIR", "/from/a");
    b.env = Map.of("DIR", "/from/b", "OTHER", "b");
    assertThat(services(a, b).environment(CONTAINER, Map.of()))
        .containsExactly(Map.entry("DIR", "/from/a"), Map.entry("OTHER", "b"));
  }
}
