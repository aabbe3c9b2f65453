package dev.bobbin.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AppsCommandTest {
  private static final String TWO_APPS = """
      {"apps":{"app":[
        {"id":"application_1700000000000_0001","name":"greet","applicationType":"DISTRIBUTED-SHELL",
         "user":"alice","queue":"root.default","state":"RUNNING","finalStatus":"UNDEFINED","progress":42.5},
        {"id":"application_1700000000000_0002","name":"word count","applicationType":"MAPREDUCE",
         "user":"bob","queue":"root.research","state":"FINISHED","finalStatus":"SUCCEEDED","progress":100.0}]}}
      """;

  private final FakeRm rm = TestRms.start();

  @AfterEach
  void stop() {
    rm.close();
  }

  @Test
  void printsATableAndTheCount() {
    rm.on("GET", AppPaths.APPS, 200, TWO_APPS);

    Cli.Result result = Cli.run("apps", "--rm", rm.url());

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).isEqualTo("""
        Total number of applications: 2
        Application-Id                  Name        Type               User   Queue          State     Final-Status  Progress
        application_1700000000000_0001  greet       DISTRIBUTED-SHELL  alice  root.default   RUNNING   UNDEFINED     42.5%
        application_1700000000000_0002  word count  MAPREDUCE          bob    root.research  FINISHED  SUCCEEDED     100%
        """);
    assertThat(rm.requests().get(0).query()).isEqualTo(Map.of("user.name", Cli.USER));
  }

  @Test
  void filtersBecomeQueryParameters() {
    rm.on("GET", AppPaths.APPS, 200, TWO_APPS);

    Cli.run("apps", "--rm", rm.url(), "--states", "running, accepted", "--queue", "research", "--user", "bob");

    assertThat(rm.requests().get(0).query())
        .isEqualTo(Map.of("states", "ACCEPTED,RUNNING", "queue", "research", "user", "bob", "user.name", "bob"));
  }

  @Test
  void acceptsNullAndSingleObjectCollections() {
    rm.on("GET", AppPaths.APPS, 200, "{\"apps\":null}");
    assertThat(Cli.run("apps", "--rm", rm.url()).out()).startsWith("Total number of applications: 0\n");

    rm.on("GET", AppPaths.APPS, 200, "{\"apps\":{\"app\":{\"id\":\"application_1700000000000_0009\"}}}");
    assertThat(Cli.run("apps", "--rm", rm.url()).out())
        .startsWith("Total number of applications: 1\n")
        .contains("application_1700000000000_0009");
  }
}
