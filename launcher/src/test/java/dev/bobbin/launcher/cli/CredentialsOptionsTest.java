package dev.bobbin.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Client commands call with a bearer token from --token-file or $BOBBIN_TOKEN, else as --user. */
class CredentialsOptionsTest {
  private static final String APPS = "{\"apps\":null}";
  private final FakeRm rm = TestRms.start();

  @AfterEach
  void stop() {
    rm.close();
  }

  @Test
  void aTokenFileIsSentAsABearerTokenInsteadOfAUserName(@TempDir Path dir) throws Exception {
    rm.on("GET", AppPaths.APPS, 200, APPS);
    Path token = dir.resolve("token");
    Files.writeString(token, "aaa.bbb.ccc\n");

    Cli.Result result = Cli.run("apps", "--rm", rm.url(), "--token-file", token.toString());

    assertThat(result.exitCode()).as(result.err()).isZero();
    FakeRm.Request get = rm.requests().get(0);
    assertThat(get.authorization()).isEqualTo("Bearer aaa.bbb.ccc");
    assertThat(get.query()).doesNotContainKey("user.name");
  }

  @Test
  void theEnvironmentsTokenIsUsedWhenNoFileIsNamed() {
    rm.on("GET", AppPaths.APPS, 200, APPS);

    Cli.Result result = Cli.runIn(Cli.context(null, "eee.fff.ggg"), "apps", "--rm", rm.url());

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(rm.requests().get(0).authorization()).isEqualTo("Bearer eee.fff.ggg");
  }

  @Test
  void withoutATokenTheUserIsNamedAndNoAuthorizationIsSent() {
    rm.on("GET", AppPaths.APPS, 200, APPS);

    assertThat(Cli.run("apps", "--rm", rm.url()).exitCode()).isZero();

    assertThat(rm.requests().get(0).authorization()).isNull();
    assertThat(rm.requests().get(0).query()).containsEntry("user.name", Cli.USER);
  }

  @Test
  void aUserWithATokenAndAnUnreadableTokenFileAreUsageErrors(@TempDir Path dir) {
    Cli.Result both = Cli.runIn(Cli.context(null, "eee.fff.ggg"), "apps", "--rm", rm.url(), "--user", "bob");
    assertThat(both.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(both.err()).contains("--user cannot be combined with a token");

    Cli.Result missing = Cli.run("apps", "--rm", rm.url(), "--token-file", dir.resolve("none").toString());
    assertThat(missing.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(missing.err()).contains("--token-file: cannot read");
    assertThat(rm.requests()).isEmpty();
  }
}
