package dev.bobbin.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class StatusCommandTest {
  private static final String APP_ID = "application_1700000000000_0003";
  private static final String APP = """
      {"app":{"id":"application_1700000000000_0003","user":"alice","name":"greet","queue":"root.default",
       "state":"FINISHED","finalStatus":"SUCCEEDED","progress":100.0,"applicationType":"DISTRIBUTED-SHELL",
       "startedTime":1700000000000,"finishedTime":1700000065000,"amRPCAddress":"node1.example:40123",
       "amHostHttpAddress":"node1.example:8042","trackingUrl":"http://node1.example:40124/",
       "diagnostics":"All 3 containers\\nsucceeded"}}
      """;
  private static final String ATTEMPTS = """
      {"appAttempts":{"appAttempt":[
        {"id":1,"appAttemptId":"appattempt_1700000000000_0003_000001","appAttemptState":"FAILED",
         "containerId":"container_1700000000000_0003_01_000001","nodeId":"node2.example:45454",
         "exitStatus":-100,"diagnosticsInfo":"Node lost"},
        {"id":2,"appAttemptId":"appattempt_1700000000000_0003_000002","appAttemptState":"FINISHED",
         "containerId":"container_1700000000000_0003_02_000001","nodeId":"node1.example:45454",
         "exitStatus":0,"diagnosticsInfo":""}]}}
      """;

  private final FakeRm rm = TestRms.start();

  @AfterEach
  void stop() {
    rm.close();
  }

  @Test
  void printsTheApplicationReportAndOneLinePerAttempt() {
    rm.on("GET", AppPaths.app(APP_ID), 200, APP).on("GET", AppPaths.attempts(APP_ID), 200, ATTEMPTS);

    Cli.Result result = Cli.run("status", APP_ID, "--rm", rm.url());

    assertThat(result.exitCode()).isZero();
    assertThat(result.err()).isEmpty();
    assertThat(result.out()).contains(
        "  Application-Id    : " + APP_ID + "\n",
        "  Application-Name  : greet\n",
        "  User              : alice\n",
        "  Queue             : root.default\n",
        "  State             : FINISHED\n",
        "  Final-Status      : SUCCEEDED\n",
        "  Progress          : 100%\n",
        "  Start-Time        : 2023-11-14T22:13:20Z\n",
        "  Finish-Time       : 2023-11-14T22:14:25Z\n",
        "  AM Host           : node1.example\n",
        "  Tracking-URL      : http://node1.example:40124/\n",
        "  Diagnostics       : All 3 containers succeeded\n",
        "Application Attempts: 2\n");
    assertThat(result.out()).containsPattern(
        "appattempt_1700000000000_0003_000001 +FAILED +container_1700000000000_0003_01_000001"
            + " +node2.example:45454 +-100 +Node lost\n");
    assertThat(result.out()).containsPattern(
        "appattempt_1700000000000_0003_000002 +FINISHED +container_1700000000000_0003_02_000001"
            + " +node1.example:45454 +0\n");
  }

  @Test
  void acceptsASingleAttemptObjectAndARunningApplication() {
    rm.on("GET", AppPaths.app(APP_ID), 200,
            "{\"app\":{\"id\":\"" + APP_ID + "\",\"state\":\"ACCEPTED\",\"progress\":0.0,\"finishedTime\":0}}")
        .on("GET", AppPaths.attempts(APP_ID), 200,
            "{\"appAttempts\":{\"appAttempt\":{\"id\":1,\"appAttemptId\":\"appattempt_1700000000000_0003_000001\","
                + "\"containerId\":\"\",\"nodeId\":\"\"}}}");

    Cli.Result result = Cli.run("status", APP_ID, "--rm", rm.url());

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).contains("Finish-Time       : N/A", "AM Host           : N/A", "Application Attempts: 1");
    assertThat(result.out()).containsPattern("appattempt_1700000000000_0003_000001 +N/A +N/A +N/A +N/A\n");
  }

  @Test
  void reportsAnUnknownApplicationAsTheRmsError() {
    rm.on("GET", AppPaths.app(APP_ID), 404, """
        {"RemoteException":{"exception":"NotFoundException",
         "message":"java.lang.Exception: app with id: application_1700000000000_0003 not found",
         "javaClassName":"org.apache.hadoop.yarn.webapp.NotFoundException"}}""");

    Cli.Result result = Cli.run("status", APP_ID, "--rm", rm.url());

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err()).isEqualTo("NotFoundException: app with id: " + APP_ID + " not found\n");
  }

  @Test
  void showsPreemptionsSufferedAndCausedWithTheirReasons() {
    String app = """
        {"app":{"id":"application_1700000000000_0003","state":"RUNNING","finalStatus":"UNDEFINED",
         "numAMContainerPreempted":0,"numNonAMContainerPreempted":1,"preemptedResourceMB":1024,
         "preemptionsSuffered":{"preemption":[{"containerId":"container_1700000000000_0003_01_000004",
           "starvedAppId":"application_1700000000000_0004","reason":"root.b starved below its fair share"}]},
         "preemptionsCaused":{"preemption":[]}}}
        """;
    rm.on("GET", AppPaths.app(APP_ID), 200, app).on("GET", AppPaths.attempts(APP_ID), 200, "{\"appAttempts\":null}");

    Cli.Result result = Cli.run("status", APP_ID, "--rm", rm.url());

    assertThat(result.out()).contains("Preemptions: 1 containers lost (0 AM), 1024 MB")
        .contains("lost   container_1700000000000_0003_01_000004 to application_1700000000000_0004:"
            + " root.b starved below its fair share");
  }
}
