package dev.bobbin.core.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.fair.FairSchedulerConfig;
import dev.bobbin.core.EntityTestKits;
import dev.bobbin.core.policy.SchedulerView;
import dev.bobbin.core.policy.fair.FairQueueTree;
import dev.bobbin.core.policy.fair.FairShareCalculator;
import dev.bobbin.core.policy.fair.FairView;
import dev.bobbin.core.policy.fair.QueueSpec;
import dev.bobbin.protocol.Resource;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The scheduler view crosses to the member that answers the request: it survives serialization. */
class SchedulerViewSerializationTest {
  private static final ActorTestKit testKit = ActorTestKit.create(EntityTestKits.config());

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  @Test
  void aFairViewWithReservedContainersSurvivesSerialization() throws Exception {
    var root = ConfigFactory.parseString("bobbin.scheduler.fair { queues { a {}, b {} } }").resolve();
    QueueSpec tree = FairQueueTree.build(FairSchedulerConfig.load(root), Map.of(),
        Resource.of(8192, 8));
    var shares = FairShareCalculator.compute(tree, Resource.of(8192, 8), List.of());
    FairView view = new FairView(tree, shares, Resource.of(8192, 8), Map.of(),
        Map.of("root.b", new FairView.Reserved(Resource.of(4096, 1), 1)));
    Serialization serialization = SerializationExtension.get(testKit.system());
    byte[] bytes = serialization.serialize(view).get();
    var serializer = serialization.findSerializerFor(view);
    var back = (SchedulerView) serialization.deserialize(bytes, serializer.identifier(),
        Serializers.manifestFor(serializer, view)).get();
    assertThat(back).isEqualTo(view);
    assertThat(back.schedulerInfo()).isEqualTo(view.schedulerInfo());
  }
}
