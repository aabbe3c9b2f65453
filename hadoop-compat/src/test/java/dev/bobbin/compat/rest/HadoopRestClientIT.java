package dev.bobbin.compat.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.module.jaxb.JaxbAnnotationModule;
import com.sun.jersey.api.json.JSONConfiguration;
import com.sun.jersey.api.json.JSONJAXBContext;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.NmSettings;
import dev.bobbin.launcher.RmMember;
import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.WireJson;
import java.io.StringReader;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.bind.JAXBContext;
import org.apache.hadoop.yarn.api.records.ApplicationAccessType;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.dao.AppInfo;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.dao.AppState;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.dao.ApplicationSubmissionContextInfo;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.dao.AppsInfo;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.dao.ClusterInfo;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.dao.ClusterMetricsInfo;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.dao.FifoSchedulerInfo;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.dao.NewApplication;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.dao.SchedulerTypeInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client built on Hadoop 3.4.2's own web service classes against a real RM member and
 * NodeManager: submissions written by each of the writers such a client uses (Jersey's natural
 * notation, which Hadoop's RM configures, Jersey's mapped notation, Jackson with JAXB annotations,
 * JAXB's XML) keep every command, environment variable and tag, and the XML answers read back into
 * Hadoop's classes.
 */
class HadoopRestClientIT {
  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private static final String USER = "?user.name=alice";
  @TempDir static Path dir;
  private static RmMember rm;
  private static NodeManager nm;
  private static String base;

  @BeforeAll
  static void start() throws Exception {
    rm = RmMember.start(ConfigFactory.parseMap(Map.of(
        "bobbin.data-dir", dir.resolve("rm").toString(),
        "bobbin.rm.http-port", freePort(),
        "pekko.remote.artery.canonical.port", freePort())));
    Config nmConfig = ConfigFactory.parseMap(Map.of(
        "bobbin.nm.rm-addresses", List.of(rm.url()),
        "bobbin.nm.http-port", freePort(),
        "bobbin.nm.memory-mb", 2048,
        "bobbin.nm.vcores", 2,
        "bobbin.nm.node-credential-file", rm.nodeCredentialFile().toString(),
        "bobbin.nm.work-dir", dir.resolve("nm").toString())).withFallback(ConfigFactory.load());
    nm = NodeManager.start(NmSettings.from(nmConfig), nmConfig);
    base = rm.url() + "/ws/v1/cluster";
  }

  @AfterAll
  static void stop() {
    if (nm != null) nm.close();
    if (rm != null) rm.close();
  }

  @Test
  void theNaturalNotationKeepsEveryCommandAndVariableOfTheAmContainer() throws Exception {
    Path out = Files.createDirectories(dir.resolve("am-out"));
    String id = newApplication();
    ApplicationSubmissionContextInfo app = context(id, List.of(
        "printf '%s,%s,%s' \"$A\" \"$B\" \"$C\" > " + out.resolve("env.txt"),
        "echo second > " + out.resolve("second.txt")));
    app.getContainerLaunchContextInfo().setEnvironment(new HashMap<>(Map.of("A", "1", "B", "2", "C", "3")));
    String json = jersey(JSONConfiguration.natural().rootUnwrapping(true).build(), app);
    assertThat(json).contains("\"entry\":{\"key\":").contains("\"commands\":[{\"command\":[");

    assertThat(submit(json, "application/json").statusCode()).isEqualTo(202);
    await("the AM container's output", () -> Files.exists(out.resolve("second.txt")));
    assertThat(Files.readString(out.resolve("env.txt"))).isEqualTo("1,2,3");
    AppInfo report = readXml(get("/apps/" + id), AppInfo.class);
    assertThat(Set.of(report.getApplicationTags().split(","))).containsExactlyInAnyOrder("t1", "t2");
    kill(id);
  }

  @Test
  void theOtherWritersSubmissionsKeepEveryValue() throws Exception {
    ObjectMapper jackson = new ObjectMapper().registerModule(new JaxbAnnotationModule())
        .enable(MapperFeature.USE_WRAPPER_NAME_AS_PROPERTY_NAME);
    for (String writer : List.of("mapped", "jackson", "xml")) {
      String id = newApplication();
      ApplicationSubmissionContextInfo app = context(id, List.of("sleep 60", "true"));
      app.setApplicationName(writer);
      app.getContainerLaunchContextInfo().setEnvironment(new HashMap<>(Map.of("A", "1", "B", "2")));
      String body = switch (writer) {
        case "mapped" -> jersey(JSONConfiguration.DEFAULT, app);
        case "jackson" -> jackson.writeValueAsString(app);
        default -> xml(app);
      };
      HttpResponse<String> r = submit(body, writer.equals("xml") ? "application/xml" : "application/json");
      assertThat(r.statusCode()).as(writer + ": " + r.body()).isEqualTo(202);
      AppInfo report = readXml(get("/apps/" + id), AppInfo.class);
      assertThat(report.getName()).isEqualTo(writer);
      assertThat(Set.of(report.getApplicationTags().split(","))).as(writer).containsExactlyInAnyOrder("t1", "t2");
      kill(id);
    }
  }

  /** Jackson without the wrappers' names writes Hadoop's Java field names, which no RM reads: refused by name. */
  @Test
  void aFieldThatWouldBeDroppedIsRefusedAndNothingIsCreated() throws Exception {
    String id = newApplication();
    String body = new ObjectMapper().registerModule(new JaxbAnnotationModule())
        .writeValueAsString(context(id, List.of("true")));
    HttpResponse<String> r = HTTP.send(request("/apps").setHeader("Accept", "application/json")
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(400);
    JsonNode e = WireJson.mapper().readTree(r.body()).path("RemoteException");
    assertThat(e.path("exception").asText()).isEqualTo("BadRequestException");
    assertThat(e.path("message").asText()).contains("Unknown field");
    assertThat(get("/apps/" + id).statusCode()).isEqualTo(404);
  }

  @Test
  void xmlAnswersReadIntoHadoopsClasses() throws Exception {
    ClusterInfo info = readXml(get("/info"), ClusterInfo.class);
    String id = newApplication();
    assertThat(id).startsWith("application_" + info.getClusterId() + "_");
    assertThat(info.getState()).isEqualTo("STARTED");
    await("the NodeManager", () -> readXml(get("/metrics"), ClusterMetricsInfo.class).getActiveNodes() == 1);
    ClusterMetricsInfo metrics = readXml(get("/metrics"), ClusterMetricsInfo.class);
    assertThat(metrics.getTotalMB()).isEqualTo(2048);
    SchedulerTypeInfo scheduler = readXml(get("/scheduler"), SchedulerTypeInfo.class);
    assertThat(scheduler.getSchedulerInfo()).as("JAXB picks the policy's class by its xsi:type")
        .isInstanceOf(FifoSchedulerInfo.class);
    assertThat(((FifoSchedulerInfo) scheduler.getSchedulerInfo()).getNumNodes()).isEqualTo(1);

    assertThat(submit(xml(context(id, List.of("sleep 60"))), "application/xml").statusCode()).isEqualTo(202);
    await("the application listed", () ->
        readXml(get("/apps"), AppsInfo.class).getApps().stream().anyMatch(a -> a.getAppId().equals(id)));
    HttpResponse<String> killed = HTTP.send(request("/apps/" + id + "/state").header("Content-Type", "application/xml")
        .PUT(HttpRequest.BodyPublishers.ofString(xml(new AppState("KILLED")))).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(readXml(killed, AppState.class).getState()).isIn("KILLED", "KILLING");
    await("the kill", () -> readXml(get("/apps/" + id + "/state"), AppState.class).getState().equals("KILLED"));
  }

  private static ApplicationSubmissionContextInfo context(String id, List<String> commands) {
    ApplicationSubmissionContextInfo app = new ApplicationSubmissionContextInfo();
    app.setApplicationId(id);
    app.setApplicationName("hadoop-client");
    app.setQueue("default");
    app.getContainerLaunchContextInfo().setCommands(new ArrayList<>(commands));
    app.getContainerLaunchContextInfo().setAcls(new HashMap<>(Map.of(ApplicationAccessType.VIEW_APP, "bob")));
    app.setApplicationTags(new HashSet<>(Set.of("t1", "t2")));
    app.getResource().setMemory(256);
    app.getResource().setvCores(1);
    return app;
  }

  private static String newApplication() throws Exception {
    HttpResponse<String> r = HTTP.send(request("/apps/new-application").POST(HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString());
    NewApplication issued = readXml(r, NewApplication.class);
    assertThat(issued.getMaximumResourceCapability().getMemorySize()).isPositive();
    return issued.getApplicationId();
  }

  private static HttpResponse<String> submit(String body, String contentType) throws Exception {
    return HTTP.send(request("/apps").header("Content-Type", contentType)
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static void kill(String id) throws Exception {
    HTTP.send(request("/apps/" + id + "/state").header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString("{\"state\":\"KILLED\"}")).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> get(String path) throws Exception {
    return HTTP.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(base + path + USER)).header("Accept", "application/xml");
  }

  private static <T> T readXml(HttpResponse<String> r, Class<T> type) throws Exception {
    assertThat(r.headers().firstValue("Content-Type").orElse("")).as(r.body()).startsWith("application/xml");
    return type.cast(JAXBContext.newInstance(type).createUnmarshaller().unmarshal(new StringReader(r.body())));
  }

  private static String jersey(JSONConfiguration config, Object value) throws Exception {
    StringWriter out = new StringWriter();
    new JSONJAXBContext(config, value.getClass()).createJSONMarshaller().marshallToJSON(value, out);
    return out.toString();
  }

  private static String xml(Object value) throws Exception {
    StringWriter out = new StringWriter();
    JAXBContext.newInstance(value.getClass()).createMarshaller().marshal(value, out);
    return out.toString();
  }

  private static void await(String what, java.util.concurrent.Callable<Boolean> condition) throws Exception {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
    Exception last = null;
    while (Instant.now().isBefore(deadline)) {
      try {
        if (condition.call()) return;
      } catch (Exception e) {
        last = e;
      }
      java.util.concurrent.locks.LockSupport.parkNanos(200_000_000L);
    }
    throw new AssertionError("Timed out waiting for " + what, last);
  }

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
