package dev.bobbin.core.policy;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.QueuePath;
import dev.bobbin.config.fair.FairSchedulerConfig;
import dev.bobbin.config.security.Caller;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Queue ACLs inherited down the tree, as Hadoop's FairScheduler checks them. */
class QueueAclsTest {
  private static final Caller ALICE = new Caller("alice", List.of("alice", "analysts"));
  private static final Caller BOB = new Caller("bob", List.of("bob"));
  private static final Caller OPS = new Caller("olga", List.of("olga", "ops"));
  private static final Caller EVE = new Caller("eve", List.of("eve"));

  private static QueueAcls acls(String queues) {
    return QueueAcls.of(FairSchedulerConfig.fromHocon(ConfigFactory.parseString(
        "bobbin.scheduler.fair.queues {" + queues + "}").withFallback(ConfigFactory.load()).resolve()));
  }

  private static final QueueAcls LOCKED = acls("""
      root { acl-submit-apps = " ", acl-administer-apps = " ops",
        queues {
          analytics { acl-submit-apps = "alice,bob analysts", queues { adhoc {} } }
          batch { acl-administer-apps = "bob" }
          default {}
        } }""");

  @Test
  void withoutAclsTheRootAllowsEveryoneEverywhere() {
    QueueAcls open = acls("a { queues { b {} } }");
    assertThat(open.canSubmit(QueuePath.of("a.b"), EVE)).isTrue();
    assertThat(open.canAdminister(QueuePath.of("a"), EVE)).isTrue();
  }

  @Test
  void queuesWithoutAclsOfTheirOwnTakeSubmissionsFromAllAndHaveNoAdministrators() {
    assertThat(QueueAcls.SUBMIT_ONLY.canSubmit(QueuePath.of("default"), EVE)).isTrue();
    assertThat(QueueAcls.SUBMIT_ONLY.canAdminister(QueuePath.of("default"), EVE)).isFalse();
    assertThat(QueueAcls.SUBMIT_ONLY.canAdminister(QueuePath.ROOT, EVE)).isFalse();
  }

  @Test
  void aQueuesAclAllowsItsUsersAndGroupsOnItAndEveryQueueBelowIt() {
    assertThat(LOCKED.canSubmit(QueuePath.of("analytics"), BOB)).as("a user named").isTrue();
    assertThat(LOCKED.canSubmit(QueuePath.of("analytics"), new Caller("ann", List.of("analysts")))).as("a group")
        .isTrue();
    assertThat(LOCKED.canSubmit(QueuePath.of("analytics.adhoc"), ALICE)).as("inherited by a child").isTrue();
    assertThat(LOCKED.canSubmit(QueuePath.of("analytics.adhoc.created"), ALICE)).as("a queue placement creates")
        .isTrue();
    assertThat(LOCKED.canSubmit(QueuePath.of("analytics"), EVE)).isFalse();
    assertThat(LOCKED.canSubmit(QueuePath.of("default"), ALICE)).as("a queue that sets none allows no one of its own")
        .isFalse();
  }

  @Test
  void administratorsMaySubmitAndAdministerBelowTheirQueue() {
    assertThat(LOCKED.canAdminister(QueuePath.of("default"), OPS)).as("from the root's group").isTrue();
    assertThat(LOCKED.canSubmit(QueuePath.of("default"), OPS)).isTrue();
    assertThat(LOCKED.canAdminister(QueuePath.of("batch"), BOB)).isTrue();
    assertThat(LOCKED.canSubmit(QueuePath.of("batch"), BOB)).as("administering implies submitting").isTrue();
    assertThat(LOCKED.canAdminister(QueuePath.of("analytics"), BOB)).as("submit rights are not admin rights")
        .isFalse();
    assertThat(LOCKED.canAdminister(QueuePath.ROOT, BOB)).isFalse();
  }

  @Test
  void aSingleSpaceAtTheRootLocksEverythingNotOpenedBelow() {
    QueueAcls closed = acls("root { acl-submit-apps = \" \", acl-administer-apps = \" \", queues { a {} } }");
    assertThat(closed.canSubmit(QueuePath.of("a"), ALICE)).isFalse();
    assertThat(closed.canAdminister(QueuePath.of("a"), ALICE)).isFalse();
  }
}
