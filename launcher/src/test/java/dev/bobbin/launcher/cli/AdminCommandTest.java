package dev.bobbin.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jwt.SignedJWT;
import dev.bobbin.auth.HmacKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AdminCommandTest {
  private final FakeRm rm = TestRms.start();

  @AfterEach
  void stop() {
    rm.close();
  }

  @Test
  void refreshQueuesPrintsWhatTheRmChangedAndAsksAsTheUser() {
    rm.on("PUT", AppPaths.REFRESH_QUEUES, 200, "{\"result\":\"Queues refreshed: root.b added\"}");

    Cli.Result result = Cli.run("admin", "refresh-queues", "--rm", rm.url(), "--user", "yarn");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).isEqualTo("Queues refreshed: root.b added\n");
    assertThat(rm.requests("PUT", AppPaths.REFRESH_QUEUES)).singleElement()
        .satisfies(put -> assertThat(put.query()).containsEntry("user.name", "yarn"));
  }

  @Test
  void anInvalidAllocationFileIsTheRmsRefusal() {
    rm.on("PUT", AppPaths.REFRESH_QUEUES, 400, """
        {"RemoteException":{"exception":"BadRequestException",
         "message":"java.lang.Exception: queue root.b: weight must be positive",
         "javaClassName":"org.apache.hadoop.yarn.webapp.BadRequestException"}}""");

    Cli.Result result = Cli.run("admin", "refresh-queues", "--rm", rm.url());

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err()).isEqualTo("BadRequestException: queue root.b: weight must be positive\n");
  }

  @Test
  void refreshNodesPrintsWhatTheRmDecommissioned() {
    rm.on("PUT", AppPaths.REFRESH_NODES, 200, "{\"result\":\"Nodes refreshed; decommissioned h1:8041\"}");

    Cli.Result result = Cli.run("admin", "refresh-nodes", "--rm", rm.url(), "--user", "yarn");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.out()).isEqualTo("Nodes refreshed; decommissioned h1:8041\n");
    assertThat(rm.requests("PUT", AppPaths.REFRESH_NODES)).singleElement()
        .satisfies(put -> assertThat(put.query()).containsEntry("user.name", "yarn"));
  }

  @Test
  void refreshNodesGracefullyAsksForTheTimeoutOrTheRmsDefault() {
    rm.on("PUT", AppPaths.REFRESH_NODES, 200, "{\"result\":\"Nodes refreshed; decommissioning h1:8041\"}");

    assertThat(Cli.run("admin", "refresh-nodes", "-g", "30", "--rm", rm.url()).exitCode()).isZero();
    assertThat(Cli.run("admin", "refresh-nodes", "--rm", rm.url(), "-g").exitCode()).isZero();

    assertThat(rm.requests("PUT", AppPaths.REFRESH_NODES)).extracting(put -> put.query().get("graceful"))
        .containsExactly("30", "default");
  }

  @Test
  void aGracefulTimeoutThatIsNotSecondsIsAUsageError() {
    Cli.Result result = Cli.run("admin", "refresh-nodes", "-g", "1h", "--rm", rm.url());

    assertThat(result.exitCode()).isEqualTo(64);
    assertThat(result.err()).contains("-g", "1h");
    assertThat(rm.requests("PUT", AppPaths.REFRESH_NODES)).isEmpty();
  }

  @Test
  void refreshUserToGroupsMappingsAsksTheRm() {
    rm.on("PUT", AppPaths.REFRESH_GROUPS, 200, "{\"result\":\"User to groups mappings refreshed\"}");

    Cli.Result result = Cli.run("admin", "refresh-user-to-groups-mappings", "--rm", rm.url(), "--user", "yarn");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.out()).isEqualTo("User to groups mappings refreshed\n");
    assertThat(rm.requests("PUT", AppPaths.REFRESH_GROUPS)).singleElement()
        .satisfies(put -> assertThat(put.query()).containsEntry("user.name", "yarn"));
  }

  @Test
  void issueTokenSignsTheUserAndGroupsWithTheClustersKey(@TempDir Path dir) throws Exception {
    Path key = dir.resolve("hmac");
    HmacKeys.generate(key);
    Path conf = dir.resolve("bobbin.conf");
    Files.writeString(conf, "bobbin.security.token { hmac-key-file = \"" + key + "\", audience = tests }\n");

    Cli.Result result = Cli.run("admin", "issue-token", "--user", "alice", "--groups", "eng,ops", "--ttl", "30m",
        "--config", conf.toString());

    assertThat(result.exitCode()).as(result.err()).isZero();
    SignedJWT jwt = SignedJWT.parse(result.out().strip());
    assertThat(jwt.verify(new com.nimbusds.jose.crypto.MACVerifier(HmacKeys.read(key, "key")))).isTrue();
    var claims = jwt.getJWTClaimsSet();
    assertThat(claims.getSubject()).isEqualTo("alice");
    assertThat(claims.getStringListClaim("groups")).containsExactly("eng", "ops");
    assertThat(claims.getAudience()).containsExactly("tests");
    assertThat(Duration.between(claims.getIssueTime().toInstant(), claims.getExpirationTime().toInstant()))
        .isEqualTo(Duration.ofMinutes(30));
  }

  @Test
  void issueTokenWithoutAKeyOrWithABadTtlSaysWhat() {
    Cli.Result noKey = Cli.run("admin", "issue-token", "--user", "alice");
    assertThat(noKey.exitCode()).isEqualTo(ExitCodes.BAD_SETTING);
    assertThat(noKey.err()).contains("bobbin.security.token.hmac-key-file");

    Cli.Result badTtl = Cli.run("admin", "issue-token", "--user", "alice", "--ttl", "soon");
    assertThat(badTtl.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(badTtl.err()).contains("--ttl").contains("soon");
  }
}
