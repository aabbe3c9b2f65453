package dev.bobbin.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.persistence.testing.TestJournals;
import java.nio.file.Path;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.SerializationTestKit;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.jackson.JacksonCborSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** reference.conf binds the project marker to Jackson CBOR, and records round-trip. */
class SerializationTest {
  private static final ActorTestKit kit = ActorTestKit.create(TestJournals.embedded(Path.of("target/unused")));

  @AfterAll
  static void shutDown() {
    kit.shutdownTestKit();
  }

  @Test
  void theMarkerIsBoundToJacksonCbor() {
    assertThat(SerializationExtension.get(kit.system()).findSerializerFor(new Ledger.Added("x")))
        .isInstanceOf(JacksonCborSerializer.class);
    assertThat(kit.system().settings().config().getBoolean("pekko.actor.allow-java-serialization")).isFalse();
  }

  @Test
  void recordsRoundTripIncludingSingleFieldOnesAndActorRefs() {
    SerializationTestKit serialization = new SerializationTestKit(kit.system());
    serialization.verifySerialization(new Ledger.Added("x"), true);
    serialization.verifySerialization(new Ledger.State(List.of("a", "b")), true);
    serialization.verifySerialization(new Ledger.Get(kit.<Ledger.Summary>createTestProbe().ref()), true);
  }
}
