package dev.bobbin.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.am.shell.ShellAmSpec;
import dev.bobbin.am.shell.ShippedResources;
import dev.bobbin.protocol.LocalResource;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.WireJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SubmitCommandTest {
  private static final String APP_ID = "application_1700000000000_0007";
  private static final String NEW_APP =
      "{\"application-id\":\"" + APP_ID + "\",\"maximum-resource-capability\":{\"memory\":8192,\"vCores\":8}}";

  private final FakeRm rm = TestRms.start()
      .on("POST", AppPaths.NEW_APPLICATION, 200, NEW_APP)
      .on("POST", AppPaths.APPS, 202, "");

  @AfterEach
  void stop() {
    rm.close();
  }

  @Test
  void submitsADistributedShellApplicationAndPrintsItsId() throws Exception {
    Cli.Result result = Cli.run("submit", "--rm", rm.url(), "--shell", "echo hi $CONTAINER_ID",
        "--containers", "3", "--memory", "512", "--vcores", "2", "--queue", "research", "--name", "greet",
        "--priority", "5", "--max-attempts", "2", "--am-memory", "768");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).isEqualTo("Submitted application " + APP_ID + " to queue research\n");
    List<FakeRm.Request> submissions = rm.requests("POST", AppPaths.APPS);
    assertThat(submissions).hasSize(1);
    assertThat(submissions.get(0).query()).containsEntry("user.name", Cli.USER);
    JsonNode body = WireJson.mapper().readTree(submissions.get(0).body());
    assertThat(body.path("application-id").asText()).isEqualTo(APP_ID);
    assertThat(body.path("application-name").asText()).isEqualTo("greet");
    assertThat(body.path("queue").asText()).isEqualTo("research");
    assertThat(body.path("priority").asInt()).isEqualTo(5);
    assertThat(body.path("application-type").asText()).isEqualTo("DISTRIBUTED-SHELL");
    assertThat(body.path("max-app-attempts").asInt()).isEqualTo(2);
    assertThat(body.path("resource").path("memory").asLong()).isEqualTo(768);
    assertThat(body.path("resource").path("vCores").asInt()).isEqualTo(1);
    assertThat(texts(body.path("am-container-spec").path("commands").path("command")))
        .isEqualTo(ShellAmSpec.commands(Cli.AM_CLASSPATH, "echo hi $CONTAINER_ID", 3, new Resource(512, 2), 0));
    assertThat(body.path("am-container-spec").path("environment").path("entry").isArray()).isTrue();
    assertThat(body.path("application-tags").path("tag").isArray()).isTrue();
  }

  @Test
  void keepContainersAsksTheRmToKeepThemAndTheAmToAdoptThem() throws Exception {
    Cli.run("submit", "--rm", rm.url(), "--shell", "sleep 60", "--containers", "2", "--keep-containers");

    JsonNode body = WireJson.mapper().readTree(rm.requests("POST", AppPaths.APPS).get(0).body());
    assertThat(body.path("keep-containers-across-application-attempts").asBoolean()).isTrue();
    List<String> commands = texts(body.path("am-container-spec").path("commands").path("command"));
    assertThat(commands).isEqualTo(ShellAmSpec.commands(Cli.AM_CLASSPATH, "sleep 60", 2, new Resource(1024, 1), 0, true));
    assertThat(commands.get(0)).endsWith(" --keep-containers");
  }

  @Test
  void shipsFilesAndArchivesToTheAmsContainers(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("input.txt"), "data");
    Path archive = Files.writeString(dir.resolve("tools.tgz"), "not really gzip");
    Cli.Result result = Cli.run("submit", "--rm", rm.url(), "--shell", "cat input.txt",
        "--file", file.toString(), "--archive", archive.toString());

    assertThat(result.exitCode()).isZero();
    JsonNode body = WireJson.mapper().readTree(rm.requests("POST", AppPaths.APPS).get(0).body());
    JsonNode entry = body.path("am-container-spec").path("environment").path("entry").get(0);
    assertThat(entry.path("key").asText()).isEqualTo(ShippedResources.ENV);
    var shipped = ShippedResources.fromEnvironment(Map.of(ShippedResources.ENV, entry.path("value").asText()));
    assertThat(shipped).containsOnlyKeys("input.txt", "tools.tgz");
    assertThat(shipped.get("input.txt")).isEqualTo(LocalResource.of(file.toUri().toString(), LocalResource.Type.FILE,
        LocalResource.Visibility.APPLICATION, 4, Files.getLastModifiedTime(file).toMillis()));
    assertThat(shipped.get("tools.tgz").type()).isEqualTo(LocalResource.Type.ARCHIVE);
  }

  @Test
  void refusesAFileThatIsNotThere(@TempDir Path dir) {
    Cli.Result result = Cli.run("submit", "--rm", rm.url(), "--shell", "true", "--file",
        dir.resolve("missing.txt").toString());

    assertThat(result.exitCode()).isEqualTo(64);
    assertThat(result.err()).contains("--file " + dir.resolve("missing.txt") + ": no such file or not readable");
    assertThat(rm.requests("POST", AppPaths.APPS)).isEmpty();
  }

  @Test
  void asksForTheApplicationIdAsTheUser() {
    Cli.run("submit", "--rm", rm.url(), "--user", "bob", "--shell", "true");

    assertThat(rm.requests().get(0).path()).isEqualTo(AppPaths.NEW_APPLICATION);
    assertThat(rm.requests().get(0).query()).containsEntry("user.name", "bob");
  }

  @Test
  void usesTheDocumentedDefaults() throws Exception {
    Cli.run("submit", "--rm", rm.url(), "--shell", "true");

    JsonNode body = WireJson.mapper().readTree(rm.requests("POST", AppPaths.APPS).get(0).body());
    assertThat(body.path("queue").asText()).isEqualTo("default");
    assertThat(body.path("resource").path("memory").asLong()).isEqualTo(1024);
    // No priority asked for: the queue's default-application-priority applies.
    assertThat(body.has("priority")).isFalse();
    assertThat(body.has("keep-containers-across-application-attempts")).isFalse();
    assertThat(texts(body.path("am-container-spec").path("commands").path("command")))
        .isEqualTo(ShellAmSpec.commands(Cli.AM_CLASSPATH, "true", 1, new Resource(1024, 1), 0));
  }

  @Test
  void waitFollowsTheApplicationUntilItSucceeds() {
    rm.on("GET", AppPaths.app(APP_ID),
        new FakeRm.Reply(200, app("ACCEPTED", "UNDEFINED", "")),
        new FakeRm.Reply(200, app("ACCEPTED", "UNDEFINED", "")),
        new FakeRm.Reply(200, app("RUNNING", "UNDEFINED", "")),
        new FakeRm.Reply(200, app("FINISHED", "SUCCEEDED", "")));

    Cli.Result result = Cli.run("submit", "--rm", rm.url(), "--shell", "true", "--wait");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).containsSubsequence(
        "Submitted application " + APP_ID,
        "Application " + APP_ID + " is ACCEPTED\n",
        "Application " + APP_ID + " is RUNNING\n",
        "Application " + APP_ID + " is FINISHED\n",
        "final status SUCCEEDED");
    assertThat(result.out()).containsOnlyOnce("is ACCEPTED");
  }

  @Test
  void waitShowsTheProgressOfARunningApplicationEachTimeItChanges() {
    rm.on("GET", AppPaths.app(APP_ID),
        new FakeRm.Reply(200, running(0)),
        new FakeRm.Reply(200, running(25)),
        new FakeRm.Reply(200, running(25)),
        new FakeRm.Reply(200, running(80)),
        new FakeRm.Reply(200, app("FINISHED", "SUCCEEDED", "")));

    Cli.Result result = Cli.run("submit", "--rm", rm.url(), "--shell", "true", "--wait");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).containsSubsequence(
        "Application " + APP_ID + " is RUNNING\n",
        "Application " + APP_ID + " progress 25%\n",
        "Application " + APP_ID + " progress 80%\n",
        "Application " + APP_ID + " is FINISHED\n");
    assertThat(result.out()).containsOnlyOnce("progress 25%").doesNotContain("progress 0%");
  }

  private static String running(int progress) {
    return "{\"app\":{\"id\":\"" + APP_ID + "\",\"state\":\"RUNNING\",\"finalStatus\":\"UNDEFINED\",\"progress\":"
        + progress + "}}";
  }

  @Test
  void waitExitsNonZeroWithTheDiagnosticsWhenTheApplicationFails() {
    rm.on("GET", AppPaths.app(APP_ID), 200, app("FAILED", "FAILED", "AM container exited with code 1"));

    Cli.Result result = Cli.run("submit", "--rm", rm.url(), "--shell", "false", "--wait");

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.out()).contains("state FAILED, final status FAILED", "Diagnostics: AM container exited with code 1");
  }

  @Test
  void refusesContainersLargerThanTheClusterAllows() {
    Cli.Result result = Cli.run("submit", "--rm", rm.url(), "--shell", "true", "--memory", "16384");

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err()).contains("exceed the cluster's maximum");
    assertThat(rm.requests("POST", AppPaths.APPS)).isEmpty();
  }

  private static String app(String state, String finalStatus, String diagnostics) {
    return "{\"app\":{\"id\":\"" + APP_ID + "\",\"state\":\"" + state + "\",\"finalStatus\":\"" + finalStatus
        + "\",\"diagnostics\":\"" + diagnostics + "\"}}";
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }
}
