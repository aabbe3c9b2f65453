package dev.bobbin.am;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.FinalApplicationStatus;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.am.Container;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The callback facade, as a plain Java AM main would use it. */
class AmSessionTest {

  @Test
  void aPlainJavaAmRegistersGetsContainersAndUnregisters() throws Exception {
    BlockingQueue<Container> allocated = new LinkedBlockingQueue<>();
    BlockingQueue<ContainerStatus> completed = new LinkedBlockingQueue<>();
    AmListener listener = new AmListener() {
      @Override
      public void onContainersAllocated(List<Container> containers) {
        allocated.addAll(containers);
      }

      @Override
      public void onContainersCompleted(List<ContainerStatus> statuses) {
        completed.addAll(statuses);
      }
    };
    try (TestingRm rm = TestingRm.start(1);
        AmSession am = AmSession.start(rm.settings(rm.addresses()), listener)) {
      assertThat(am.registered().toCompletableFuture().get(10, TimeUnit.SECONDS).queue()).isEqualTo("root.default");

      am.addContainerRequest(ContainerRequest.any(Resource.of(256, 1), 0));
      Container c = allocated.poll(10, TimeUnit.SECONDS);
      assertThat(c).isNotNull();
      rm.complete(c.id(), 0, "");
      assertThat(completed.poll(10, TimeUnit.SECONDS)).extracting(ContainerStatus::containerId).isEqualTo(c.id());

      am.setProgress(1f);
      am.unregister(FinalApplicationStatus.SUCCEEDED, "done").toCompletableFuture().get(10, TimeUnit.SECONDS);
      assertThat(rm.lastFinalStatus()).isEqualTo(FinalApplicationStatus.SUCCEEDED);
      assertThat(allocated.poll(100, TimeUnit.MILLISECONDS)).isNull();
    }
  }

  @Test
  void settingsComeFromTheContainerEnvironment() {
    AmClientSettings s = AmClientSettings.fromEnvironment(java.util.Map.of(
        "BOBBIN_RM_ADDRESSES", "http://a:8088/, http://b:8088",
        "BOBBIN_AM_TOKEN", "tok",
        "CONTAINER_ID", "container_e3_1700000000000_0007_02_000001",
        "NM_HOST", "worker-1"));
    assertThat(s.rmAddresses()).containsExactly("http://a:8088", "http://b:8088");
    assertThat(s.attemptId()).isEqualTo("appattempt_1700000000000_0007_000002");
    assertThat(s.host()).isEqualTo("worker-1");
    assertThat(s.heartbeatInterval()).isEqualTo(Duration.ofMillis(200));
  }
}
