package dev.bobbin.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class LocalSingletonTest {
  private static final ActorTestKit testKit = ActorTestKit.create();

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /** Echoes to the probe; "stop" stops it, "fail" throws. */
  private static Behavior<String> echo(ActorRef<String> probe) {
    return Behaviors.receive(String.class)
        .onMessageEquals("stop", Behaviors::stopped)
        .onMessage(String.class, m -> {
          if (m.equals("fail")) throw new IllegalStateException("failed on purpose");
          probe.tell("got " + m);
          return Behaviors.same();
        })
        .build();
  }

  @Test
  void messagesGoToTheSingletonWhileItRunsHereAndToTheProxyOnceItStopped() {
    TestProbe<String> received = testKit.createTestProbe();
    TestProbe<String> proxy = testKit.createTestProbe();
    AtomicReference<ActorRef<String>> started = new AtomicReference<>();
    LocalSingleton<String> singleton = LocalSingleton.init(String.class, echo(received.ref()), b -> {
      started.set(testKit.spawn(b));
      return proxy.ref();
    });
    assertThat(singleton.proxy()).isEqualTo(proxy.ref());

    received.awaitAssert(() -> assertThat(singleton.ref()).isEqualTo(started.get()));
    singleton.ref().tell("heartbeat");
    received.expectMessage("got heartbeat");
    proxy.expectNoMessage(Duration.ofMillis(100));

    started.get().tell("stop");
    received.awaitAssert(() -> assertThat(singleton.ref()).isEqualTo(proxy.ref()));
    singleton.ref().tell("heartbeat");
    proxy.expectMessage("heartbeat");
  }

  @Test
  void aSingletonRestartedByItsSupervisorKeepsItsRegistration() {
    TestProbe<String> received = testKit.createTestProbe();
    TestProbe<String> proxy = testKit.createTestProbe();
    AtomicReference<ActorRef<String>> started = new AtomicReference<>();
    LocalSingleton<String> singleton = LocalSingleton.init(String.class,
        Behaviors.supervise(echo(received.ref())).onFailure(org.apache.pekko.actor.typed.SupervisorStrategy.restart()),
        b -> {
          started.set(testKit.spawn(b));
          return proxy.ref();
        });
    received.awaitAssert(() -> assertThat(singleton.ref()).isEqualTo(started.get()));

    singleton.ref().tell("fail");
    singleton.ref().tell("after the restart");
    received.expectMessage("got after the restart");
    assertThat(singleton.ref()).isEqualTo(started.get());
  }
}
