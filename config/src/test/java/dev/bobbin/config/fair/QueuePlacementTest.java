package dev.bobbin.config.fair;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.config.fair.Placement.Placed;
import dev.bobbin.config.fair.Placement.Rejected;
import dev.bobbin.config.fair.PlacementRule.Kind;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class QueuePlacementTest {
  /** root.{default, bob, analysts, first_dot_last} are leaves; root.ops and root.eng are parents. */
  private static final FairSchedulerConfig CONFIG =
      Fixtures.xml(
          """
          <queue name="default"/>
          <queue name="bob"/>
          <queue name="analysts"/>
          <queue name="first_dot_last"/>
          <queue name="ops" type="parent"/>
          <queue name="eng"><queue name="web"/></queue>
          """);
  private static final KnownQueues KNOWN = KnownQueues.of(CONFIG);

  private static final PlacementRule REJECT = PlacementRule.of(Kind.REJECT, true);

  private static Placement place(List<PlacementRule> rules, String requested, String user, List<String> groups) {
    return QueuePlacement.place(new PlacementPolicy(rules), requested, user, groups, KNOWN);
  }

  private static Placement place(PlacementRule rule, String requested, String user, List<String> groups) {
    return place(List.of(rule, REJECT), requested, user, groups);
  }

  private static Placed placed(String queue, String rule, String... toCreate) {
    return new Placed(queue, List.of(toCreate), rule);
  }

  private static PlacementRule nested(PlacementRule parent) {
    return new PlacementRule(Kind.NESTED_USER_QUEUE, true, null, parent);
  }

  @Nested
  class Specified {
    private final PlacementRule create = PlacementRule.of(Kind.SPECIFIED, true);
    private final PlacementRule existingOnly = PlacementRule.of(Kind.SPECIFIED, false);

    @Test
    void placesInTheRequestedQueueWithOrWithoutRoot() {
      assertThat(place(existingOnly, "eng.web", "alice", List.of()))
          .isEqualTo(placed("root.eng.web", "rule 1 (specified create=false)"));
      assertThat(place(existingOnly, "root.eng.web", "alice", List.of()))
          .isEqualTo(placed("root.eng.web", "rule 1 (specified create=false)"));
    }

    @Test
    void defaultOrNothingRequestedPassesToTheNextRule() {
      List<PlacementRule> rules = List.of(create, PlacementRule.of(Kind.DEFAULT, true));
      for (String requested : new String[] {"default", "", null}) {
        assertThat(place(rules, requested, "alice", List.of()))
            .isEqualTo(placed("root.default", "rule 2 (default queue=root.default)"));
      }
    }

    @Test
    void createsMissingQueuesTopDown() {
      assertThat(place(create, "newq", "alice", List.of())).isEqualTo(placed("root.newq", "rule 1 (specified)", "root.newq"));
      assertThat(place(create, "a.b.c", "alice", List.of()))
          .isEqualTo(placed("root.a.b.c", "rule 1 (specified)", "root.a", "root.a.b", "root.a.b.c"));
      assertThat(place(create, "eng.api", "alice", List.of()))
          .isEqualTo(placed("root.eng.api", "rule 1 (specified)", "root.eng.api"));
    }

    @Test
    void withoutCreateAMissingQueuePassesOn() {
      assertThat(place(existingOnly, "newq", "alice", List.of()))
          .isEqualTo(new Rejected("rule 2 (reject): the reject rule refuses every application that reaches it"));
    }

    @Test
    void refusesNamesStartingOrEndingWithADot() {
      assertThat(place(create, ".q", "alice", List.of()))
          .isEqualTo(new Rejected("rule 1 (specified): requested queue name '.q' is not valid"));
      assertThat(place(create, "q.", "alice", List.of())).isInstanceOf(Rejected.class);
      assertThat(((Rejected) place(create, "a..b", "alice", List.of())).reason()).contains("has an empty part");
    }

    @Test
    void refusesParentQueuesAndQueuesUnderLeaves() {
      assertThat(place(create, "eng", "alice", List.of()))
          .isEqualTo(new Rejected("rule 1 (specified): root.eng is a parent queue; applications go to leaf queues"));
      assertThat(((Rejected) place(create, "root", "alice", List.of())).reason()).contains("root is a parent queue");
      assertThat(place(create, "bob.x", "alice", List.of()))
          .isEqualTo(new Rejected("rule 1 (specified): cannot place in root.bob.x because root.bob is a leaf queue"));
    }
  }

  @Nested
  class User {
    @Test
    void placesInTheUsersQueue() {
      assertThat(place(PlacementRule.of(Kind.USER, false), null, "bob", List.of()))
          .isEqualTo(placed("root.bob", "rule 1 (user create=false)"));
      assertThat(place(PlacementRule.of(Kind.USER, true), null, "carol", List.of()))
          .isEqualTo(placed("root.carol", "rule 1 (user)", "root.carol"));
    }

    @Test
    void withoutCreateOnlyAnExistingQueueMatches() {
      assertThat(place(PlacementRule.of(Kind.USER, false), null, "carol", List.of())).isInstanceOf(Rejected.class);
    }

    @Test
    void dotsInTheNameBecomeDotWords() {
      assertThat(place(PlacementRule.of(Kind.USER, false), null, "first.last", List.of()))
          .isEqualTo(placed("root.first_dot_last", "rule 1 (user create=false)"));
    }
  }

  @Nested
  class PrimaryGroup {
    @Test
    void placesInThePrimaryGroupsQueue() {
      assertThat(place(PlacementRule.of(Kind.PRIMARY_GROUP, false), null, "alice", List.of("analysts", "eng")))
          .isEqualTo(placed("root.analysts", "rule 1 (primaryGroup create=false)"));
      assertThat(place(PlacementRule.of(Kind.PRIMARY_GROUP, true), null, "alice", List.of("team.x")))
          .isEqualTo(placed("root.team_dot_x", "rule 1 (primaryGroup)", "root.team_dot_x"));
    }

    @Test
    void aUserWithNoGroupsIsRefused() {
      assertThat(place(PlacementRule.of(Kind.PRIMARY_GROUP, true), null, "alice", List.of()))
          .isEqualTo(new Rejected("rule 1 (primaryGroup): no groups are known for user alice"));
    }
  }

  @Nested
  class SecondaryGroupExistingQueue {
    private final PlacementRule rule = PlacementRule.of(Kind.SECONDARY_GROUP_EXISTING_QUEUE, true);

    @Test
    void firstSecondaryGroupWithAConfiguredQueue() {
      assertThat(place(rule, null, "alice", List.of("eng", "nosuch", "analysts", "bob")))
          .isEqualTo(placed("root.analysts", "rule 1 (secondaryGroupExistingQueue)"));
    }

    @Test
    void thePrimaryGroupIsNotConsidered() {
      assertThat(place(rule, null, "alice", List.of("analysts"))).isInstanceOf(Rejected.class);
      assertThat(place(rule, null, "alice", List.of())).isInstanceOf(Rejected.class);
    }

    @Test
    void neverCreatesEvenWithCreateTrue() {
      assertThat(((Rejected) place(rule, null, "alice", List.of("x", "newgroup"))).reason()).contains("reject rule");
    }

    @Test
    void aMatchingParentQueueIsRefusedAsHadoopDoes() {
      assertThat(((Rejected) place(rule, null, "alice", List.of("x", "ops"))).reason())
          .contains("root.ops is a parent queue");
    }
  }

  @Nested
  class NestedUserQueue {
    @Test
    void userQueueUnderThePrimaryGroupsParentQueue() {
      assertThat(place(nested(PlacementRule.of(Kind.PRIMARY_GROUP, false)), null, "alice", List.of("ops")))
          .isEqualTo(placed("root.ops.alice", "rule 1 (nestedUserQueue(primaryGroup create=false))", "root.ops.alice"));
    }

    @Test
    void aParentRuleThatLandsOnALeafPassesOn() {
      List<PlacementRule> rules = List.of(nested(PlacementRule.of(Kind.PRIMARY_GROUP, false)), PlacementRule.of(Kind.DEFAULT, true));
      assertThat(place(rules, null, "alice", List.of("analysts")))
          .isEqualTo(placed("root.default", "rule 2 (default queue=root.default)"));
    }

    @Test
    void underASecondaryGroupOrTheDefaultQueue() {
      assertThat(place(nested(PlacementRule.of(Kind.SECONDARY_GROUP_EXISTING_QUEUE, false)), null, "alice", List.of("x", "eng")))
          .isEqualTo(placed("root.eng.alice", "rule 1 (nestedUserQueue(secondaryGroupExistingQueue create=false))", "root.eng.alice"));
      PlacementRule underOps = nested(new PlacementRule(Kind.DEFAULT, true, "ops", null));
      assertThat(place(underOps, null, "first.last", List.of()))
          .isEqualTo(placed("root.ops.first_dot_last", "rule 1 (nestedUserQueue(default queue=root.ops))", "root.ops.first_dot_last"));
    }

    @Test
    void aParentRuleMayCreateTheParentToo() {
      assertThat(place(nested(PlacementRule.of(Kind.PRIMARY_GROUP, true)), null, "alice", List.of("newteam")))
          .isEqualTo(placed("root.newteam.alice", "rule 1 (nestedUserQueue(primaryGroup))", "root.newteam", "root.newteam.alice"));
    }

    @Test
    void withoutCreateTheUserQueueMustBeConfigured() {
      PlacementRule rule = new PlacementRule(Kind.NESTED_USER_QUEUE, false, null, new PlacementRule(Kind.DEFAULT, true, "eng", null));
      assertThat(place(rule, null, "alice", List.of())).isInstanceOf(Rejected.class);
      assertThat(place(rule, null, "web", List.of())).isEqualTo(placed("root.eng.web", "rule 1 (nestedUserQueue(default queue=root.eng) create=false)"));
    }

    @Test
    void anyRuleMayTakeAParentAsInHadoop3() {
      PlacementRule groupUnderOps =
          new PlacementRule(Kind.PRIMARY_GROUP, true, null, new PlacementRule(Kind.DEFAULT, true, "ops", null));
      assertThat(place(groupUnderOps, null, "alice", List.of("analysts")))
          .isEqualTo(placed("root.ops.analysts", "rule 1 (primaryGroup(default queue=root.ops))", "root.ops.analysts"));
    }
  }

  @Nested
  class DefaultAndReject {
    @Test
    void defaultPlacesInRootDefaultOrItsQueue() {
      assertThat(place(List.of(PlacementRule.of(Kind.DEFAULT, true)), "x", "alice", List.of()))
          .isEqualTo(placed("root.default", "rule 1 (default queue=root.default)"));
      assertThat(place(List.of(new PlacementRule(Kind.DEFAULT, true, "eng.web", null)), null, "alice", List.of()))
          .isEqualTo(placed("root.eng.web", "rule 1 (default queue=root.eng.web)"));
    }

    @Test
    void defaultWithoutCreateNeedsAConfiguredQueue() {
      assertThat(place(new PlacementRule(Kind.DEFAULT, false, "missing", null), null, "alice", List.of()))
          .isInstanceOf(Rejected.class);
    }

    @Test
    void defaultCreatesRootDefaultWhenNothingIsConfigured() {
      Placement p =
          QueuePlacement.place(
              new PlacementPolicy(List.of(PlacementRule.of(Kind.DEFAULT, true))), null, "alice", List.of(),
              KnownQueues.of(FairSchedulerConfig.minimal()));
      assertThat(p).isEqualTo(placed("root.default", "rule 1 (default queue=root.default)", "root.default"));
    }

    @Test
    void rejectRefuses() {
      assertThat(place(List.of(REJECT), "eng.web", "alice", List.of()))
          .isEqualTo(new Rejected("rule 1 (reject): the reject rule refuses every application that reaches it"));
    }

    @Test
    void fallingOffTheEndIsARefusal() {
      assertThat(place(List.of(PlacementRule.of(Kind.SPECIFIED, false)), "nosuch", "alice", List.of()))
          .isEqualTo(new Rejected("no placement rule chose a queue"));
    }
  }

  @Nested
  class HadoopDefaultPolicy {
    private final PlacementRule specified = PlacementRule.of(Kind.SPECIFIED, true);

    @Test
    void builtFromUserAsDefaultQueueAndAllowUndeclaredPools() {
      assertThat(PlacementPolicy.hadoopDefault(true, true).rules())
          .containsExactly(specified, PlacementRule.of(Kind.USER, true));
      assertThat(PlacementPolicy.hadoopDefault(false, true).rules())
          .containsExactly(specified, PlacementRule.of(Kind.DEFAULT, true));
      assertThat(PlacementPolicy.hadoopDefault(true, false).rules())
          .containsExactly(
              PlacementRule.of(Kind.SPECIFIED, false), PlacementRule.of(Kind.USER, false), PlacementRule.of(Kind.DEFAULT, true));
      assertThat(PlacementPolicy.hadoopDefault(false, false).rules())
          .containsExactly(PlacementRule.of(Kind.SPECIFIED, false), PlacementRule.of(Kind.DEFAULT, true));
    }

    @Test
    void usedOnlyWhenTheConfigurationHasNoPolicy() {
      FairGlobalSettings global = FairGlobalSettings.HADOOP_DEFAULTS;
      assertThat(CONFIG.placementPolicyOr(global)).isEqualTo(PlacementPolicy.hadoopDefault(true, true));
      FairSchedulerConfig full = Fixtures.fullXml();
      assertThat(full.placementPolicyOr(global)).isSameAs(full.placementPolicy());
    }

    @Test
    void byDefaultEachUserGetsAQueue() {
      PlacementPolicy policy = PlacementPolicy.hadoopDefault(true, true);
      assertThat(QueuePlacement.place(policy, "default", "carol", List.of(), KNOWN))
          .isEqualTo(placed("root.carol", "rule 2 (user)", "root.carol"));
      assertThat(QueuePlacement.place(policy, "eng.web", "carol", List.of(), KNOWN))
          .isEqualTo(placed("root.eng.web", "rule 1 (specified)"));
    }
  }

  @Test
  void queuesCreatedAtRunTimeDoNotCountAsConfigured() {
    Placed first = (Placed) place(PlacementRule.of(Kind.SPECIFIED, true), "a.b", "alice", List.of());
    KnownQueues after = KNOWN.with(first);
    assertThat(after.isParent("root.a")).isTrue();
    assertThat(after.isLeaf("root.a.b")).isTrue();
    assertThat(after.isConfigured("root.a.b")).isFalse();
    // Now it exists: a creating rule places there without creating it again ...
    assertThat(QueuePlacement.place(new PlacementPolicy(List.of(PlacementRule.of(Kind.SPECIFIED, true), REJECT)), "a.b", "alice", List.of(), after))
        .isEqualTo(placed("root.a.b", "rule 1 (specified)"));
    // ... but create=false still only matches queues declared in the configuration, as in Hadoop.
    assertThat(QueuePlacement.place(new PlacementPolicy(List.of(PlacementRule.of(Kind.SPECIFIED, false), REJECT)), "a.b", "alice", List.of(), after))
        .isInstanceOf(Rejected.class);
  }
}
