package dev.bobbin.core.access;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.QueuePath;
import dev.bobbin.config.fair.FairSchedulerConfig;
import dev.bobbin.config.security.AccessControlList;
import dev.bobbin.config.security.Caller;
import dev.bobbin.core.app.AppReport;
import dev.bobbin.core.app.AppState;
import dev.bobbin.core.app.ApplicationAccessType;
import dev.bobbin.core.app.PreemptionHistory;
import dev.bobbin.core.policy.QueueAcls;
import dev.bobbin.protocol.FinalApplicationStatus;
import dev.bobbin.protocol.Resource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Hadoop's ApplicationACLsManager and QueueACLsManager decisions. */
class AccessRulesTest {
  private static final Caller ALICE = new Caller("alice", List.of("alice"));
  private static final Caller BOB = new Caller("bob", List.of("bob", "eng"));
  private static final Caller CAROL = new Caller("carol", List.of("carol"));
  private static final Caller ROOT = new Caller("yarn", List.of("yarn"));
  private static final Caller OLGA = new Caller("olga", List.of("olga", "ops"));
  private static final AccessRules ON = new AccessRules(true, AccessControlList.parse(" ").withUser("yarn"));
  private static final QueueAcls QUEUES = QueueAcls.of(FairSchedulerConfig.fromHocon(ConfigFactory.parseString("""
      bobbin.scheduler.fair.queues { root { acl-administer-apps = " ", queues {
        prod { acl-administer-apps = " ops" }, dev {} } } }""").withFallback(ConfigFactory.load()).resolve()));

  private static AppReport app(String queue, Map<ApplicationAccessType, String> acls) {
    return new AppReport("application_1_0001", "alice", "n", queue, AppState.RUNNING, FinalApplicationStatus.UNDEFINED,
        "", "YARN", List.of(), 0, 1, 0, new Resource(1024, 1), 1, List.of(), PreemptionHistory.NONE, acls);
  }

  @Test
  void theOwnerAndTheAdministratorsMayViewAndModify() {
    AppReport app = app("dev", Map.of());
    for (Caller c : List.of(ALICE, ROOT)) {
      assertThat(ON.canView(c, app, QUEUES)).as(c.user()).isTrue();
      assertThat(ON.canModify(c, app, QUEUES)).as(c.user()).isTrue();
    }
    assertThat(ON.canView(BOB, app, QUEUES)).isFalse();
    assertThat(ON.canModify(BOB, app, QUEUES)).isFalse();
  }

  @Test
  void theApplicationsAclsGrantEachTheirOwnRight() {
    AppReport app = app("dev", Map.of(ApplicationAccessType.VIEW_APP, "carol eng", ApplicationAccessType.MODIFY_APP,
        "carol"));
    assertThat(ON.canView(BOB, app, QUEUES)).as("by group").isTrue();
    assertThat(ON.canModify(BOB, app, QUEUES)).as("viewing is not modifying").isFalse();
    assertThat(ON.canModify(CAROL, app, QUEUES)).isTrue();
    assertThat(ON.canView(CAROL, app(("dev"), Map.of(ApplicationAccessType.VIEW_APP, "*")), QUEUES)).isTrue();
  }

  @Test
  void theQueuesAdministratorsMayViewAndModifyItsApplications() {
    assertThat(ON.canModify(OLGA, app("prod", Map.of()), QUEUES)).isTrue();
    assertThat(ON.canView(OLGA, app("prod", Map.of()), QUEUES)).isTrue();
    assertThat(ON.canModify(OLGA, app("dev", Map.of()), QUEUES)).isFalse();
  }

  @Test
  void adminEndpointsAreForTheAdministrators() {
    assertThat(ON.isAdmin(ROOT)).isTrue();
    assertThat(ON.isAdmin(ALICE)).isFalse();
    assertThat(new AccessRules(true, AccessControlList.parse("alice ops")).isAdmin(OLGA)).isTrue();
  }

  @Test
  void submittingFollowsTheQueuesAcls() {
    QueueAcls locked = QueueAcls.of(FairSchedulerConfig.fromHocon(ConfigFactory.parseString("""
        bobbin.scheduler.fair.queues { root { acl-submit-apps = " ", acl-administer-apps = " ",
          queues { a { acl-submit-apps = alice } } } }""")
        .withFallback(ConfigFactory.load()).resolve()));
    assertThat(ON.canSubmit(ALICE, locked, QueuePath.of("a"))).isTrue();
    assertThat(ON.canSubmit(BOB, locked, QueuePath.of("a"))).isFalse();
    assertThat(AccessRules.OFF.canSubmit(BOB, locked, QueuePath.of("a"))).isTrue();
  }

  @Test
  void withAclsOffEveryoneMayDoEverything() {
    AppReport app = app("dev", Map.of());
    assertThat(AccessRules.OFF.canView(BOB, app, QUEUES)).isTrue();
    assertThat(AccessRules.OFF.canModify(BOB, app, QUEUES)).isTrue();
    assertThat(AccessRules.OFF.isAdmin(BOB)).isTrue();
    assertThat(new AccessRules(false, AccessControlList.NO_ONE).isAdmin(BOB)).isTrue();
  }
}
