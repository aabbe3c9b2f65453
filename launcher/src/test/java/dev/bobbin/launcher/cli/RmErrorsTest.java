package dev.bobbin.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RmErrorsTest {
  private final FakeRm rm = TestRms.start();

  @AfterEach
  void stop() {
    rm.close();
  }

  @Test
  void unreachableRmExitsWith2AndSaysWhere() {
    String closed = TestRms.closedPortUrl();

    Cli.Result result = Cli.run("apps", "--rm", closed);

    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err()).isEqualTo("Cannot reach the ResourceManager at " + closed + ": connection refused\n");
  }

  @Test
  void whenEveryRmRefusesTheMessageNamesThemAll() {
    String first = TestRms.closedPortUrl();
    String second = TestRms.closedPortUrl();

    Cli.Result result = Cli.run("apps", "--rm", first + "," + second);

    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err())
        .isEqualTo("Cannot reach the ResourceManager at " + first + ", " + second + ": connection refused\n");
  }

  @Test
  void triesTheNextRmWhenOneRefusesConnections() {
    rm.on("GET", AppPaths.APPS, 200, "{\"apps\":null}");

    Cli.Result result = Cli.run("apps", "--rm", TestRms.closedPortUrl() + "," + rm.url());

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).startsWith("Total number of applications: 0");
  }

  @Test
  void takesTheRmFromTheEnvironmentUnlessGiven() {
    rm.on("GET", AppPaths.APPS, 200, "{\"apps\":null}");

    assertThat(Cli.runWithEnv(rm.url(), "apps").exitCode()).isZero();
    assertThat(Cli.runWithEnv(rm.url(), "apps", "--rm", TestRms.closedPortUrl()).exitCode()).isEqualTo(2);
  }

  @Test
  void remoteExceptionIsPrintedWithoutTheWrapperPrefixAndExits1() {
    rm.on("POST", AppPaths.NEW_APPLICATION, 200, "{\"application-id\":\"application_1700000000000_0001\"}")
        .on("POST", AppPaths.APPS, 400, """
            {"RemoteException":{"exception":"BadRequestException",
             "message":"java.lang.Exception: Requested more memory than configured max",
             "javaClassName":"org.apache.hadoop.yarn.webapp.BadRequestException"}}""");

    Cli.Result result = Cli.run("submit", "--rm", rm.url(), "--shell", "true", "--am-memory", "999999");

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err()).isEqualTo("BadRequestException: Requested more memory than configured max\n");
    assertThat(result.out()).isEmpty();
  }

  @Test
  void remoteExceptionWithoutSimpleNameUsesTheClassName() {
    rm.on("GET", AppPaths.APPS, 500, """
        {"RemoteException":{"message":"boom","javaClassName":"org.apache.hadoop.yarn.exceptions.YarnRuntimeException"}}""");

    Cli.Result result = Cli.run("apps", "--rm", rm.url());

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err()).isEqualTo("YarnRuntimeException: boom\n");
  }

  @Test
  void nonJsonSuccessIsAnRmError() {
    rm.on("GET", AppPaths.APPS, 200, "<html>proxy login</html>");

    Cli.Result result = Cli.run("apps", "--rm", rm.url());

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err()).contains("not JSON", "<html>proxy login</html>");
  }
}
