package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.auth.HmacKeys;
import dev.bobbin.auth.TokenIssuer;
import dev.bobbin.config.security.SecuritySettings;
import dev.bobbin.config.security.TokenSettings;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An RM member that authenticates its callers and enforces YARN's ACLs: who gets 401, who gets
 * 403 and what they then see, and that a refused request changed nothing.
 */
class SecurityIT {
  private static final String AUTHENTICATION = "AuthenticationException";
  private static final String ACCESS_CONTROL = "AccessControlException";
  private RmMember rm;
  private Process rmProcess;

  @AfterEach
  void stop() {
    if (rm != null) rm.close();
    if (rmProcess != null) rmProcess.destroyForcibly();
  }

  private RmMember start(Path dir, String settings) throws Exception {
    return RmMember.start(ConfigFactory.parseString(settings).withFallback(ConfigFactory.parseMap(Map.of(
        "bobbin.data-dir", dir.resolve("rm").toString(),
        "bobbin.rm.http-port", RestApiIT.freePort(),
        "pekko.remote.artery.canonical.port", RestApiIT.freePort()))));
  }

  @Test
  void bobbinRmsOptionsTurnOnTokensAndTheAdminAclThatTheCommandsMeet(@TempDir Path dir) throws Exception {
    Path key = dir.resolve("hmac.key");
    HmacKeys.generate(key);
    Path conf = dir.resolve("bobbin.conf");
    Files.writeString(conf, "bobbin.security { token.hmac-key-file = \"" + key + "\"\n"
        + "groups { source = static, static-mapping { olga = [admins] } } }\n");
    int http = RestApiIT.freePort();
    String url = "http://127.0.0.1:" + http;
    Path log = dir.resolve("rm.log");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    rmProcess = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
            "dev.bobbin.launcher.Main", "rm", "--config", conf.toString(), "--data-dir", dir.resolve("data").toString(),
            "--http-port", String.valueOf(http), "--cluster-port", String.valueOf(RestApiIT.freePort()),
            "--auth", "token", "--admin-acl", "ops admins"))
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    try {
      Http.await(Duration.ofSeconds(60), "the RM to serve", () -> {
        if (!rmProcess.isAlive()) throw new IllegalStateException("RM exited with " + rmProcess.exitValue());
        return Http.sendAsIs(HttpRequest.newBuilder(URI.create(url + "/ws/v1/cluster/info")).GET().build())
            .status() == 401;
      });
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "\n" + Files.readString(log), e);
    }

    Path olga = dir.resolve("olga.token");
    Path bob = dir.resolve("bob.token");
    for (Path token : List.of(olga, bob)) {
      String user = token.getFileName().toString().replace(".token", "");
      Cli issued = bobbin("admin", "issue-token", "--user", user, "--config", conf.toString());
      assertThat(issued.code()).as(issued.err()).isZero();
      Files.writeString(token, issued.out());
    }

    Cli refused = bobbin("admin", "refresh-user-to-groups-mappings", "--rm", url, "--token-file", bob.toString());
    assertThat(refused.code()).as(refused.err()).isEqualTo(1);
    assertThat(refused.err()).contains(ACCESS_CONTROL).contains("bob");
    Cli done = bobbin("admin", "refresh-user-to-groups-mappings", "--rm", url, "--token-file", olga.toString());
    assertThat(done.code()).as(done.err()).isZero();
    assertThat(done.out()).contains("refreshed");
    Cli anonymous = bobbin("nodes", "--rm", url, "--user", "olga");
    assertThat(anonymous.code()).as("user.name means nothing to a token authenticator").isEqualTo(1);
    assertThat(anonymous.err()).contains(AUTHENTICATION);
  }

  /** What a {@code bobbin} command run in this JVM printed, and its exit code. */
  private record Cli(int code, String out, String err) {}

  private static Cli bobbin(String... args) {
    var out = new java.io.ByteArrayOutputStream();
    var err = new java.io.ByteArrayOutputStream();
    int code;
    try (var o = new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8);
        var e = new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8)) {
      code = Main.run(List.of(args), o, e, dev.bobbin.launcher.cli.ClientContext.system());
    }
    return new Cli(code, out.toString(java.nio.charset.StandardCharsets.UTF_8),
        err.toString(java.nio.charset.StandardCharsets.UTF_8));
  }

  @Test
  void simpleAuthenticationRefusesAnonymousCallersAndRemembersNamedOnesInItsCookie(@TempDir Path dir)
      throws Exception {
    rm = start(dir, "");
    String apps = rm.url() + "/ws/v1/cluster/apps";

    Http.Reply anonymous = Http.sendAsIs(HttpRequest.newBuilder(URI.create(apps)).GET().build());
    assertRemoteException(anonymous, 401, AUTHENTICATION, "");
    assertThat(Http.sendAsIs(HttpRequest.newBuilder(URI.create(rm.url() + "/metrics")).GET().build()).status())
        .isEqualTo(401);

    var named = Http.client().send(HttpRequest.newBuilder(URI.create(apps + "?user.name=alice")).GET().build(),
        java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(named.statusCode()).isEqualTo(200);
    String cookie = named.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("hadoop.auth="))
        .findFirst().orElseThrow().split(";", 2)[0];
    Http.Reply byCookie = Http.sendAsIs(HttpRequest.newBuilder(URI.create(apps)).header("Cookie", cookie).GET().build());
    assertThat(byCookie.status()).as(byCookie.body()).isEqualTo(200);
  }

  @Test
  void tokenAuthenticationRefusesMissingForgedExpiredAndMisdirectedTokens(@TempDir Path dir) throws Exception {
    Tokens tokens = tokens(dir);
    rm = start(dir, tokens.memberConfig());
    String apps = rm.url() + "/ws/v1/cluster/apps";

    assertRemoteException(Http.sendAsIs(HttpRequest.newBuilder(URI.create(apps)).GET().build()), 401,
        AUTHENTICATION, "");
    assertRemoteException(Http.sendAsIs(HttpRequest.newBuilder(URI.create(apps + "?user.name=alice")).GET().build()),
        401, AUTHENTICATION, "");
    byte[] otherKey = new byte[32];
    new SecureRandom().nextBytes(otherKey);
    String forged = new TokenIssuer(otherKey, tokens.settings, Clock.systemUTC()).issue("admin", List.of(),
        Duration.ofHours(1));
    String expired = new TokenIssuer(tokens.key, tokens.settings, Clock.fixed(Instant.now().minus(Duration.ofHours(3)),
        ZoneOffset.UTC)).issue("alice", List.of(), Duration.ofHours(1));
    TokenSettings s = tokens.settings;
    String elsewhere = new TokenIssuer(tokens.key, new TokenSettings(s.jwksFile(), s.jwksUrl(), s.hmacKeyFile(),
        s.issuer(), "another-cluster", s.userClaim(), s.groupsClaim(), s.clockSkew()), Clock.systemUTC())
        .issue("alice", List.of(), Duration.ofHours(1));
    for (String bad : List.of(forged, expired, elsewhere, "not-a-token")) {
      Http.Reply r = Http.sendAsIs(HttpRequest.newBuilder(URI.create(apps)).header("Authorization", "Bearer " + bad)
          .GET().build());
      assertRemoteException(r, 401, AUTHENTICATION, "");
    }
    assertThat(Http.sendAsIs(HttpRequest.newBuilder(URI.create(apps))
        .header("Authorization", "Bearer " + tokens.of("alice")).GET().build()).status()).isEqualTo(200);
  }

  @Test
  void otherUsersApplicationsAreTheirsToViewAndModifyAndQueueAclsGuardSubmission(@TempDir Path dir)
      throws Exception {
    Tokens tokens = tokens(dir);
    rm = start(dir, tokens.memberConfig() + """
        bobbin.scheduler.policy = fair
        bobbin.scheduler.fair.queues { root { acl-submit-apps = " ", acl-administer-apps = " ", queues {
          open { acl-submit-apps = "*" }
          restricted { acl-submit-apps = "carol finance" }
        } } }
        """);
    Caller alice = new Caller(rm.url(), tokens.of("alice"));
    Caller bob = new Caller(rm.url(), tokens.of("bob"));
    Caller admin = new Caller(rm.url(), tokens.of("admin"));
    Caller fin = new Caller(rm.url(), tokens.of("frank", "finance"));

    String id = alice.submit("open");
    JsonNode own = alice.get("/apps/" + id).json().path("app");
    assertThat(own.path("startedTime").asLong()).isPositive();
    assertThat(own.has("allocatedMB")).isTrue();

    // Bob sees that alice's application exists, not its details.
    JsonNode seen = bob.get("/apps/" + id).json().path("app");
    assertThat(seen.path("user").asText()).isEqualTo("alice");
    assertThat(seen.path("state").asText()).isEqualTo("ACCEPTED");
    assertThat(seen.path("startedTime").asLong()).isZero();
    assertThat(seen.has("allocatedMB")).isFalse();
    Http.await(Duration.ofSeconds(20), "alice's application in the listing", () ->
        bob.get("/apps").json().path("apps").path("app").size() == 1);
    JsonNode listed = bob.get("/apps").json().path("apps").path("app").get(0);
    assertThat(listed.path("id").asText()).isEqualTo(id);
    assertThat(listed.has("allocatedMB")).isFalse();
    assertThat(admin.get("/apps/" + id).json().path("app").has("allocatedMB")).as("admins view everything").isTrue();

    assertRemoteException(bob.put("/apps/" + id + "/state", "{\"state\":\"KILLED\"}"), 403, ACCESS_CONTROL,
        "MODIFY_APP");
    // In XML, as YARN's XML clients ask, the same refusal, in XML.
    Http.Reply inXml = Http.sendAsIs(bob.request("/apps/" + id + "/state").setHeader("Accept", "application/xml")
        .header("Content-Type", "application/xml")
        .PUT(HttpRequest.BodyPublishers.ofString("<appstate><state>KILLED</state></appstate>")).build());
    assertThat(inXml.status()).isEqualTo(403);
    assertThat(inXml.body()).contains("<RemoteException><exception>" + ACCESS_CONTROL + "</exception>")
        .contains("MODIFY_APP");
    assertThat(alice.get("/apps/" + id).json().path("app").path("state").asText()).isEqualTo("ACCEPTED");
    // A priority change is for those who may kill it too.
    assertRemoteException(bob.put("/apps/" + id + "/priority", "{\"priority\":0}"), 403, ACCESS_CONTROL,
        "MODIFY_APP");
    assertThat(alice.put("/apps/" + id + "/priority", "{\"priority\":0}").status()).isEqualTo(200);
    assertThat(admin.put("/apps/" + id + "/priority", "{\"priority\":0}").status()).isEqualTo(200);
    // So is a move, which changes nothing when refused.
    assertRemoteException(bob.put("/apps/" + id + "/queue", "{\"queue\":\"restricted\"}"), 403, ACCESS_CONTROL,
        "MODIFY_APP");
    // Its owner needs the target queue's submit rights as well.
    assertRemoteException(alice.put("/apps/" + id + "/queue", "{\"queue\":\"restricted\"}"), 403, ACCESS_CONTROL,
        "cannot submit applications to target queue");
    assertThat(alice.get("/apps/" + id + "/queue").body()).isEqualTo("{\"queue\":\"root.open\"}");

    // An attempt's containers are for the application's viewers; a bad attempt id is refused.
    String attempt = "appattempt_" + id.substring("application_".length()) + "_000001";
    Http.Reply containers = alice.get("/apps/" + id + "/appattempts/" + attempt + "/containers");
    assertThat(containers.status()).as(containers.body()).isEqualTo(200);
    assertThat(containers.json().path("containers").path("container").isArray()).isTrue();
    assertThat(admin.get("/apps/" + id + "/appattempts/" + attempt + "/containers").status()).isEqualTo(200);
    assertRemoteException(bob.get("/apps/" + id + "/appattempts/" + attempt + "/containers"), 403, ACCESS_CONTROL,
        "does not have privilege to see this application");
    assertRemoteException(alice.get("/apps/" + id + "/appattempts/" + attempt.replace("_000001", "_000009")
        + "/containers"), 404, "NotFoundException", "doesn't exist in RM");
    assertRemoteException(alice.get("/apps/" + id + "/appattempts/appattempt_x/containers"), 400,
        "BadRequestException", "AppAttemptId");

    // Submitting needs the queue's submit rights, from a user or a group; a refusal creates nothing.
    String refused = bob.newApplication();
    assertRemoteException(bob.post("/apps", submission(refused, "restricted")), 403, ACCESS_CONTROL, "restricted");
    assertRemoteException(admin.get("/apps/" + refused), 404, "NotFoundException", "not found");
    assertThat(admin.get("/apps").json().path("apps").path("app").size()).isEqualTo(1);
    String byGroup = fin.newApplication();
    assertThat(fin.post("/apps", submission(byGroup, "restricted")).status()).isEqualTo(202);

    // Admin endpoints are for the administrators.
    assertRemoteException(bob.put("/admin/refresh-queues", ""), 403, ACCESS_CONTROL, "refreshQueues");
    assertRemoteException(bob.put("/admin/refresh-nodes", ""), 403, ACCESS_CONTROL, "refreshNodes");
    assertThat(admin.put("/admin/refresh-nodes", "").status()).isEqualTo(200);
    assertRemoteException(bob.put("/nodes/h:1/state", "{\"state\":\"DECOMMISSIONING\"}"), 403, ACCESS_CONTROL,
        "updateNodeState");
    assertRemoteException(bob.put("/admin/refresh-user-to-groups-mappings", ""), 403, ACCESS_CONTROL,
        "refreshUserToGroupsMappings");
    assertThat(admin.put("/admin/refresh-user-to-groups-mappings", "").status()).isEqualTo(200);
    // Anyone may ask for their own groups; another user's are the administrators' to ask.
    assertRemoteException(bob.get("/admin/groups?user=alice"), 403, ACCESS_CONTROL, "getGroups");
    assertThat(bob.get("/admin/groups").json().path("user").asText()).isEqualTo("bob");
    Http.Reply alices = admin.get("/admin/groups?user=alice");
    assertThat(alices.status()).as(alices.body()).isEqualTo(200);
    assertThat(alices.json().path("user").asText()).isEqualTo("alice");

    // So is a change of its lifetime; its timeouts are read as its priority is.
    String timeout = "{\"timeout\":{\"type\":\"LIFETIME\",\"expiryTime\":\"2099-01-01T00:00:00.000+0000\"}}";
    assertRemoteException(bob.put("/apps/" + id + "/timeout", timeout), 403, ACCESS_CONTROL, "MODIFY_APP");
    assertThat(alice.get("/apps/" + id + "/timeout").json().path("timeout").path("expiryTime").asText())
        .isEqualTo("UNLIMITED");
    Http.Reply extended = alice.put("/apps/" + id + "/timeout", timeout);
    assertThat(extended.status()).as(extended.body()).isEqualTo(200);
    assertThat(extended.json().path("timeout").path("remainingTimeInSeconds").asLong()).isPositive();

    Http.Reply killed = admin.put("/apps/" + id + "/state", "{\"state\":\"KILLED\"}");
    assertThat(killed.status()).as(killed.body()).isEqualTo(200);
    assertThat(alice.get("/apps/" + id).json().path("app").path("state").asText()).isEqualTo("KILLED");
  }

  @Test
  void anApplicationsAclsLetTheUsersTheyNameViewAndModifyIt(@TempDir Path dir) throws Exception {
    Tokens tokens = tokens(dir);
    rm = start(dir, tokens.memberConfig());
    Caller alice = new Caller(rm.url(), tokens.of("alice"));
    Caller bob = new Caller(rm.url(), tokens.of("bob", "eng"));
    Caller carol = new Caller(rm.url(), tokens.of("carol"));

    String id = alice.newApplication();
    String body = submission(id, "default").replace("\"commands\":{\"command\":\"sleep 1\"}", """
        "commands":{"command":"sleep 1"},"application-acls":{"entry":[
          {"key":"VIEW_APP","value":"carol eng"},{"key":"MODIFY_APP","value":"carol"}]}""");
    assertThat(alice.post("/apps", body).status()).isEqualTo(202);

    assertThat(bob.get("/apps/" + id).json().path("app").has("allocatedMB")).as("VIEW_APP by group").isTrue();
    assertRemoteException(bob.put("/apps/" + id + "/state", "{\"state\":\"KILLED\"}"), 403, ACCESS_CONTROL,
        "MODIFY_APP");
    assertThat(carol.put("/apps/" + id + "/state", "{\"state\":\"KILLED\"}").status()).isEqualTo(200);
  }

  @Test
  void groupPlacementRulesPlaceByTheCallersGroups(@TempDir Path dir) throws Exception {
    Tokens tokens = tokens(dir);
    rm = start(dir, tokens.memberConfig() + """
        bobbin.scheduler.policy = fair
        bobbin.scheduler.fair {
          queues { eng {}, finance {} }
          placement-rules = [ { name = primaryGroup, create = false }, { name = secondaryGroupExistingQueue },
            { name = reject } ]
        }
        """);
    Caller bob = new Caller(rm.url(), tokens.of("bob", "eng"));
    Caller frank = new Caller(rm.url(), tokens.of("frank", "sales", "finance"));
    Caller eve = new Caller(rm.url(), tokens.of("eve"));

    String byPrimary = bob.submit("");
    assertThat(bob.get("/apps/" + byPrimary).json().path("app").path("queue").asText()).isEqualTo("root.eng");
    String bySecondary = frank.submit("");
    assertThat(frank.get("/apps/" + bySecondary).json().path("app").path("queue").asText()).isEqualTo("root.finance");
    String none = eve.newApplication();
    assertRemoteException(eve.post("/apps", submission(none, "")), 400, "BadRequestException", "rejected");
  }

  private static void assertRemoteException(Http.Reply r, int status, String exception, String messagePart)
      throws Exception {
    assertThat(r.status()).as(r.body()).isEqualTo(status);
    JsonNode e = r.json().path("RemoteException");
    assertThat(e.path("exception").asText()).isEqualTo(exception);
    assertThat(e.path("message").asText()).contains(messagePart);
  }

  private static String submission(String appId, String queue) {
    return """
        {"application-id":"%s","application-name":"it","queue":"%s",
         "am-container-spec":{"commands":{"command":"sleep 1"}},
         "resource":{"memory":512,"vCores":1}}""".formatted(appId, queue);
  }

  /** The cluster's HMAC key and the token settings of a member that reads the groups from the token. */
  private record Tokens(Path keyFile, byte[] key, TokenSettings settings) {
    String memberConfig() {
      return """
          bobbin.security { auth = token, admin-acl = "admin", token.hmac-key-file = "%s", groups.source = token }
          """.formatted(keyFile);
    }

    String of(String user, String... groups) {
      return new TokenIssuer(key, settings, Clock.systemUTC()).issue(user, List.of(groups), Duration.ofMinutes(10));
    }
  }

  private static Tokens tokens(Path dir) throws Exception {
    Path file = dir.resolve("hmac-key");
    HmacKeys.generate(file);
    Config config = ConfigFactory.parseString(new Tokens(file, null, null).memberConfig())
        .withFallback(ConfigFactory.defaultReference()).resolve();
    return new Tokens(file, HmacKeys.read(file, "hmac-key"), SecuritySettings.from(config).token());
  }

  /** Requests to the RM's REST API with one user's bearer token. */
  private record Caller(String rm, String token) {
    Http.Reply get(String path) throws Exception {
      return Http.sendAsIs(request(path).GET().build());
    }

    Http.Reply post(String path, String body) throws Exception {
      return Http.sendAsIs(request(path).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    Http.Reply put(String path, String body) throws Exception {
      return Http.sendAsIs(request(path).header("Content-Type", "application/json")
          .PUT(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    String newApplication() throws Exception {
      Http.Reply r = post("/apps/new-application", "");
      assertThat(r.status()).as(r.body()).isEqualTo(200);
      return r.json().path("application-id").asText();
    }

    String submit(String queue) throws Exception {
      String id = newApplication();
      Http.Reply r = post("/apps", submission(id, queue));
      assertThat(r.status()).as(r.body()).isEqualTo(202);
      return id;
    }

    private HttpRequest.Builder request(String path) {
      return HttpRequest.newBuilder(URI.create(rm + "/ws/v1/cluster" + path)).timeout(Duration.ofSeconds(15))
          .header("Accept", "application/json").header("Authorization", "Bearer " + token);
    }
  }
}
