package dev.bobbin.core.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.SchedulerPolicy;
import dev.bobbin.config.SchedulerSettings;
import dev.bobbin.config.fair.FairGlobalSettings;
import dev.bobbin.config.fair.FairSchedulerConfig;
import dev.bobbin.config.fair.FairSetup;
import dev.bobbin.protocol.am.ResourceRequest;
import java.time.Duration;
import java.util.List;
import org.apache.pekko.Done;
import org.junit.jupiter.api.Test;

/**
 * A container asked strictly on one host, through the scheduler actor as an AM asks for it: two
 * nodes {@code a:1} and {@code b:1} of 4 GB, the AM on a, and one container strictly on b in the
 * shape Bobbin's AM library sends (b's ask, and {@code *} with relaxLocality false).
 */
class LocalityTest extends SchedulerFixture {
  private static final List<ResourceRequest> ONE_ON_B = List.of(
      new ResourceRequest(1, "b", GB, 1, true, -1),
      new ResourceRequest(1, ResourceRequest.ANY, GB, 1, false, -1));

  private void twoNodesAndAnAm() {
    registerNode("a:1", 4096);
    registerNode("b:1", 4096);
    String am = startAppWithAm();
    assertThat(am).isNotBlank();
  }

  @Test
  void fifoPlacesItOnceAndOnB() {
    placesItOnceAndOnB();
  }

  @Test
  void fairPlacesItOnceAndOnB() {
    var root = ConfigFactory.parseString("bobbin.scheduler.fair { queues { default {} } }").resolve();
    SchedulerSettings fair = new SchedulerSettings(SchedulerPolicy.FAIR, List.of("default"), 1024, 1, 8192, 4,
        Duration.ofMillis(100), 2000, 0.5);
    start(TestingEffects.builder(), fair, new FairSetup(FairSchedulerConfig.load(root), FairGlobalSettings.from(root)));
    placesItOnceAndOnB();
  }

  private void placesItOnceAndOnB() {
    twoNodesAndAnAm();
    allocate(0, ONE_ON_B);
    var only = expectAllocation();
    assertThat(only.request().nodeId()).isEqualTo("b:1");
    only.answer(Done.getInstance());
    heartbeat("a:1");
    effects.containers.expectNoMessage(Duration.ofMillis(500));
  }

  @Test
  void aStrictContainerWhoseWriteIsRefusedIsAskedForAgainOnBOnly() {
    // The write fails: the container goes back to b's ask and to * with relaxLocality still false,
    // so the next placement is on b again, not on a, which comes first.
    twoNodesAndAnAm();
    allocate(0, ONE_ON_B);
    var refused = expectAllocation();
    assertThat(refused.request().nodeId()).isEqualTo("b:1");
    refused.refuse("journal unavailable");
    heartbeat("a:1");
    var again = expectAllocation();
    assertThat(again.request().nodeId()).isEqualTo("b:1");
    assertThat(again.request().containerId()).isNotEqualTo(refused.request().containerId());
    again.answer(Done.getInstance());
    heartbeat("a:1");
    effects.containers.expectNoMessage(Duration.ofMillis(500));
  }
}
