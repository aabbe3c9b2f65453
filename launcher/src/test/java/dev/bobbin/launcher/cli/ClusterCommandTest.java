package dev.bobbin.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ClusterCommandTest {
  private static final String A = "pekko://bobbin@rm1.example:2551";
  private static final String B = "pekko://bobbin@rm2.example:2551";
  private static final String C = "pekko://bobbin@rm3.example:2551";
  private static final String MEMBERS = """
      {"selfNode":"%s","leader":"%s","oldest":"%s","oldestPerRole":{"dc-default":"%s"},
       "members":[
         {"node":"%s","nodeUid":"3","status":"Leaving","roles":["dc-default"]},
         {"node":"%s","nodeUid":"1","status":"Up","roles":["dc-default","rm"]},
         {"node":"%s","nodeUid":"2","status":"Up","roles":["dc-default"]}],
       "unreachable":[{"node":"%s","observedBy":["%s"]}]}
      """.formatted(B, A, B, B, C, A, B, C, A);
  private static final String SHARDING = """
      {"regions":[
        {"typeName":"Application","answered":true,"members":[
          {"member":"%s","shards":51,"entities":7,"failedShards":0},
          {"member":"%s","shards":49,"entities":12,"failedShards":0}]},
        {"typeName":"Node","answered":false,"members":[]}],
       "singletons":{"member":"%s","role":""}}
      """.formatted(A, B, B);

  private final FakeRm rm = TestRms.start();

  @AfterEach
  void stop() {
    rm.close();
  }

  @Test
  void membersPrintsEachMembersStatusReachabilityRolesAndWhatItRuns() {
    rm.on("GET", "/cluster/members", 200, MEMBERS).on("GET", "/cluster/sharding", 200, SHARDING);

    Cli.Result result = Cli.run("cluster", "members", "--rm", rm.url());

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.out()).isEqualTo("""
        Members as bobbin@rm2.example:2551 sees them: 3
        Member                   Status   Reachable  Roles  Runs
        bobbin@rm1.example:2551  Up       yes        rm     leader
        bobbin@rm2.example:2551  Up       yes        -      singletons
        bobbin@rm3.example:2551  Leaving  no         -      -
        """);
  }

  @Test
  void shardsPrintsEachRegionsShardsPerMemberAndWhereTheSingletonsRun() {
    rm.on("GET", "/cluster/sharding", 200, SHARDING);

    Cli.Result result = Cli.run("cluster", "shards", "--rm", rm.url());

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.out()).isEqualTo("""
        Region       Member                            Shards  Entities
        Application  bobbin@rm1.example:2551           51      7
        Application  bobbin@rm2.example:2551           49      12
        Node         (its coordinator did not answer)  -       -
        Singletons (the scheduler among them) run on: bobbin@rm2.example:2551
        """);
  }

  @Test
  void outputJsonPrintsTheMembersAnswerAndAnotherFormatIsAUsageError() {
    rm.on("GET", "/cluster/sharding", 200, SHARDING);

    Cli.Result json = Cli.run("cluster", "shards", "--rm", rm.url(), "--output", "json");
    assertThat(json.exitCode()).isZero();
    assertThat(json.out()).contains("\"typeName\" : \"Application\"").contains("\"shards\" : 51");

    Cli.Result xml = Cli.run("cluster", "shards", "--rm", rm.url(), "--output", "xml");
    assertThat(xml.exitCode()).isEqualTo(64);
    assertThat(xml.err()).contains("Invalid value for option '--output': 'xml', expected table or json");
    assertThat(rm.requests()).hasSize(1);
  }

  @Test
  void leaveResolvesTheMemberAndAsksItsRmToHaveItLeave() {
    rm.on("GET", "/cluster/members", 200, MEMBERS)
        .on("PUT", "/cluster/members/bobbin@rm3.example:2551", 200, "{\"message\":\"Leaving " + C + "\"}");

    Cli.Result result = Cli.run("cluster", "leave", "rm3.example:2551", "--rm", rm.url());

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.out()).isEqualTo("Leaving " + C + "\n");
    assertThat(rm.requests("PUT", "/cluster/members/bobbin@rm3.example:2551")).singleElement()
        .satisfies(r -> assertThat(r.body()).isEqualTo("{\"operation\":\"Leave\"}"));
  }

  @Test
  void downOfAMemberNotInTheClusterNamesItAndTheMembersAndChangesNothing() {
    rm.on("GET", "/cluster/members", 200, MEMBERS);

    Cli.Result result = Cli.run("cluster", "down", "pekko://bobbin@rm9.example:2551", "--rm", rm.url());

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err()).contains("No member pekko://bobbin@rm9.example:2551 in the cluster as " + rm.url()
        + " sees it; its members: bobbin@rm1.example:2551, bobbin@rm2.example:2551, bobbin@rm3.example:2551");
    assertThat(rm.requests("PUT", "/cluster/members/bobbin@rm9.example:2551")).isEmpty();
  }

  @Test
  void aMemberThatIsNotAnAddressIsAUsageErrorBeforeAnyCall() {
    Cli.Result result = Cli.run("cluster", "down", "rm3", "--rm", rm.url());

    assertThat(result.exitCode()).isEqualTo(64);
    assertThat(result.err()).contains("Invalid member 'rm3', expected its cluster address");
    assertThat(rm.requests()).isEmpty();
  }

  @Test
  void aRefusalOfTheRmIsPrintedWithItsException() {
    rm.on("GET", "/cluster/members", 200, MEMBERS).on("PUT", "/cluster/members/bobbin@rm1.example:2551", 403,
        "{\"RemoteException\":{\"exception\":\"AccessControlException\",\"message\":\"User alice doesn't have"
            + " permission to change the cluster's membership\",\"javaClassName\":"
            + "\"org.apache.hadoop.security.AccessControlException\"}}");

    Cli.Result result = Cli.run("cluster", "down", A, "--rm", rm.url());

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err()).contains("AccessControlException: User alice doesn't have permission to change the"
        + " cluster's membership");
  }
}
