package dev.bobbin.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The commands spelt as yarn spells them: their parsing, their tables' width, their JSON. */
class YarnVerbsTest {
  private static final String APP = "application_1700000000000_0001";
  private static final String ATTEMPT = "appattempt_1700000000000_0001_000001";
  private static final String CONTAINER = "container_1700000000000_0001_01_000002";
  private static final String APPS = """
      {"apps":{"app":[
        {"id":"application_1700000000000_0001","name":"word count over the whole of last year's click logs",
         "user":"alice","queue":"root.analytics.nightly.long-running-batch","state":"RUNNING",
         "finalStatus":"UNDEFINED","progress":42.5,"applicationType":"MAPREDUCE"},
        {"id":"application_1700000000000_0002","name":"sleep","user":"bob","queue":"root.default",
         "state":"ACCEPTED","finalStatus":"UNDEFINED","progress":0.0}]}}
      """;
  private static final String NODES = """
      {"nodes":{"node":[
        {"id":"worker-0001.rack-17.datacentre-west.example.com:45454","state":"RUNNING",
         "nodeHTTPAddress":"worker-0001.rack-17.datacentre-west.example.com:8042","numContainers":3}]}}
      """;
  private static final String CONTAINERS = """
      {"containers":{"container":[
        {"containerId":"container_1700000000000_0001_01_000002","nodeId":"node1.example:45454",
         "nodeHttpAddress":"node1.example:8042","containerState":"RUNNING"}]}}
      """;

  private final FakeRm rm = TestRms.start();

  @AfterEach
  void stop() {
    rm.close();
  }

  @Test
  void applicationListAsksForTheActiveStatesByDefaultAndFitsEightyColumns() {
    rm.on("GET", AppPaths.APPS, 200, APPS);

    Cli.Result result = Cli.run("application", "--rm", rm.url(), "-list");

    assertThat(result.exitCode()).isZero();
    assertThat(rm.requests().get(0).query()).containsEntry("states", "ACCEPTED,RUNNING,SUBMITTED");
    assertThat(result.out()).contains(APP, "RUNNING", "42.5%", "alice", "sleep", "bob", "ACCEPTED");
    assertThat(tableLines(result.out())).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(80));
  }

  @Test
  void applicationListPassesStatesAndTypes() {
    rm.on("GET", AppPaths.APPS, 200, "{\"apps\":null}");

    Cli.Result result = Cli.run("application", "--rm", rm.url(), "-list", "-appStates", "finished,killed",
        "-appTypes", "MAPREDUCE");

    assertThat(result.exitCode()).isZero();
    assertThat(rm.requests().get(0).query())
        .containsEntry("states", "FINISHED,KILLED").containsEntry("applicationTypes", "MAPREDUCE");
  }

  @Test
  void applicationListAllStatesSendsNoStateFilter() {
    rm.on("GET", AppPaths.APPS, 200, "{\"apps\":null}");

    assertThat(Cli.run("application", "--rm", rm.url(), "-list", "-appStates", "ALL").exitCode()).isZero();
    assertThat(rm.requests().get(0).query()).doesNotContainKey("states");
  }

  @Test
  void jsonPrintsTheRmsAnswer() throws Exception {
    rm.on("GET", AppPaths.APPS, 200, APPS);

    Cli.Result result = Cli.run("application", "--rm", rm.url(), "-list", "--output", "json");

    ObjectMapper json = new ObjectMapper();
    assertThat(json.readTree(result.out())).isEqualTo(json.readTree(APPS));
  }

  @Test
  void theShortFormsPrintTheRmsJsonToo() throws Exception {
    String app = "{\"app\":{\"id\":\"" + APP + "\",\"state\":\"RUNNING\"}}";
    rm.on("GET", AppPaths.APPS, 200, APPS).on("GET", AppPaths.NODES, 200, NODES).on("GET", AppPaths.app(APP), 200, app);

    ObjectMapper json = new ObjectMapper();
    assertThat(json.readTree(Cli.run("apps", "--rm", rm.url(), "--output", "json").out())).isEqualTo(json.readTree(APPS));
    assertThat(json.readTree(Cli.run("nodes", "--rm", rm.url(), "--output=json").out())).isEqualTo(json.readTree(NODES));
    assertThat(json.readTree(Cli.run("status", APP, "--rm", rm.url(), "--output", "json").out()))
        .isEqualTo(json.readTree(app));
  }

  @Test
  void nodeListShowsRunningNodesByDefaultAndEveryStateWithAll() {
    rm.on("GET", AppPaths.NODES, 200, NODES);

    Cli.Result running = Cli.run("node", "--rm", rm.url(), "-list");
    Cli.Result all = Cli.run("node", "--rm", rm.url(), "-list", "-all");

    assertThat(running.out()).startsWith("Total Nodes:1\n").contains("RUNNING");
    assertThat(tableLines(running.out())).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(80));
    assertThat(rm.requests().get(0).query()).containsEntry("states", "RUNNING");
    assertThat(rm.requests().get(1).query()).doesNotContainKey("states");
    assertThat(all.exitCode()).isZero();
  }

  @Test
  void containerStatusFindsTheContainerAmongItsAttempts() {
    rm.on("GET", AppPaths.attempts(APP) + "/" + ATTEMPT + "/containers", 200, CONTAINERS);

    Cli.Result result = Cli.run("container", "--rm", rm.url(), "-status", CONTAINER);

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).contains("Container-Id : " + CONTAINER, "State : RUNNING", "Host : node1.example:45454");
  }

  @Test
  void queueStatusFindsTheQueueInTheSchedulersTree() {
    rm.on("GET", "/ws/v1/cluster/scheduler", 200, """
        {"scheduler":{"schedulerInfo":{"type":"fairScheduler","rootQueue":{"queueName":"root","childQueues":{"queue":[
          {"queueName":"root.default","weight":1.0,"usedResources":{"memory":1024,"vCores":1}}]}}}}}
        """);

    Cli.Result found = Cli.run("queue", "--rm", rm.url(), "-status", "default");
    Cli.Result missing = Cli.run("queue", "--rm", rm.url(), "-status", "nosuch");

    assertThat(found.out()).contains("queueName : root.default", "usedResources : <memory:1024, vCores:1>");
    assertThat(missing.exitCode()).isEqualTo(ExitCodes.REFUSED);
    assertThat(missing.err()).contains("nosuch");
  }

  @Test
  void applicationUpdateLifetimePutsAnExpiryThatLongFromNow() throws Exception {
    rm.on("PUT", AppPaths.app(APP) + "/timeout", 200,
        "{\"timeout\":{\"type\":\"LIFETIME\",\"expiryTime\":\"2030-01-01T00:00:00.000+0000\",\"remainingTimeInSeconds\":60}}");

    Cli.Result result = Cli.run("application", "--rm", rm.url(), "-updateLifetime", "60", "-appId", APP);

    assertThat(result.exitCode()).isZero();
    var body = new ObjectMapper().readTree(rm.requests().get(0).body()).path("timeout");
    assertThat(body.path("type").asText()).isEqualTo("LIFETIME");
    assertThat(body.path("expiryTime").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}[+-]\\d{4}");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "application|                                          |Missing action",
      "application|-list -status application_1_0001          |Only one action at a time",
      "application|-status nonsense                          |Invalid application id 'nonsense'",
      "application|-list -appStates RUNNIN                   |unknown state 'RUNNIN'",
      "application|-updatePriority 3                         |-updatePriority needs -appId",
      "application|-movetoqueue application_1_0001           |-movetoqueue needs -queue",
      "application|-kill application_1_0001 --output json    |--output json is for reads",
      "application|-status application_1_0001 -appTypes X    |-appTypes cannot be used with -status",
      "application|-list -bogus                              |Unknown option: '-bogus'",
      "applicationattempt|-status application_1_0001         |Invalid attempt id",
      "container|-list                                       |Missing required parameter for option '-list'",
      "node|-list -all -states RUNNING                       |-all and -states cannot be combined",
      "node|-status nohost                                   |Invalid node id 'nohost'",
      "queue|                                                |Missing required option: '-status=QUEUE'",
      "rmadmin|-refreshNodes -g soon                         |Invalid value for -g: 'soon'",
      "rmadmin|-refreshQueues -g 10                          |-g cannot be used with -refreshQueues",
      "logs|                                                 |Missing APP_ID",
      "apps|--output yaml                                    |Invalid value for option '--output'"})
  void usageErrorsNameTheProblemAndSendNothing(String command, String args, String message) {
    String[] argv = args == null ? new String[] {"--rm", rm.url()}
        : (("--rm " + rm.url() + " " + args).strip()).split("\\s+");

    Cli.Result result = Cli.run(command, argv);

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err()).contains(message);
    assertThat(rm.requests()).isEmpty();
  }

  @Test
  void rmadminRefusesWhatTheRmCannotDoNamingIt() {
    Cli.Result acls = Cli.run("rmadmin", "--rm", rm.url(), "-refreshAdminAcls");

    assertThat(acls.exitCode()).isEqualTo(ExitCodes.REFUSED);
    assertThat(acls.err()).contains("-refreshAdminAcls is not supported");
    assertThat(rm.requests()).isEmpty();
  }

  @Test
  void rmadminGetGroupsAsksForTheNamedUserAndPrintsThemAsYarnDoes() {
    rm.on("GET", "/ws/v1/cluster/admin/groups", 200, "{\"user\":\"alice\",\"groups\":[\"alice\",\"staff\"]}");

    Cli.Result groups = Cli.run("rmadmin", "--rm", rm.url(), "-getGroups", "alice");

    assertThat(groups.exitCode()).as(groups.err()).isZero();
    assertThat(groups.out()).isEqualTo("alice : alice staff\n");
    assertThat(rm.requests().get(0).query()).containsEntry("user", "alice");

    Cli.Result json = Cli.run("rmadmin", "--rm", rm.url(), "-getGroups", "alice", "--output", "json");
    assertThat(json.exitCode()).as(json.err()).isZero();
    assertThat(json.out()).contains("\"groups\"").contains("\"staff\"");
  }

  @Test
  void rmadminRefreshNodesGracefullyPassesTheTimeout() {
    rm.on("PUT", AppPaths.REFRESH_NODES, 200, "{\"result\":\"\"}");

    Cli.Result result = Cli.run("rmadmin", "--rm", rm.url(), "-refreshNodes", "-g", "30");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).isEqualTo("Nodes refreshed\n");
    assertThat(rm.requests().get(0).query()).containsEntry("graceful", "30");
  }

  @Test
  void tableNarrowsItsFreeTextColumnsToTheWidthAndCutsThem() {
    TextTable table = new TextTable("Id", "Name").row("application_1700000000000_0001", "x".repeat(100));
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    table.print(new java.io.PrintStream(bytes, true), 80, 1);

    String[] lines = bytes.toString().split("\n");
    assertThat(lines[1]).hasSize(80).endsWith("x~");
    assertThat(lines[1]).startsWith("application_1700000000000_0001  xxx");
  }

  private static java.util.List<String> tableLines(String out) {
    return out.lines().skip(1).toList();
  }

}
