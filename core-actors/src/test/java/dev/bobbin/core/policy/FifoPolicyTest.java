package dev.bobbin.core.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.Resource;
import java.util.List;
import org.junit.jupiter.api.Test;

class FifoPolicyTest {
  private final FifoPolicy policy = new FifoPolicy();
  private static final Resource GB = new Resource(1024, 1);

  private static NodeView node(String id, long mem, int vcores) {
    return new NodeView(id, id.split(":")[0], "/default-rack", new Resource(mem, vcores), Resource.NONE);
  }

  private static AppView app(String id, String queue, long submit, Ask... asks) {
    return new AppView(id, id.replace("application", "appattempt") + "_000001", queue, 0, submit, List.of(asks));
  }

  @Test
  void theEarlierApplicationInAQueueIsServedFirst() {
    // One node with room for two 1 GB containers; the first app wants 2, the second 2: only the first gets any.
    var plan = policy.assign(List.of("default"), List.of(node("a:1", 2048, 8)), List.of(
        app("application_1_0002", "default", 20, Ask.anyOf(GB, 2)),
        app("application_1_0001", "default", 10, Ask.anyOf(GB, 2))));
    assertThat(plan.assignments()).extracting(Assignment::appId).containsExactly("application_1_0001", "application_1_0001");
  }

  @Test
  void aNodeWithRoomForExactlyTheSmallestAskIsUsedAndFullOnesAreNot() {
    // The second node's free <1024, 1> is the least of the sizes asked, resource by resource.
    var plan = policy.assign(List.of("default"), List.of(new NodeView("full:1", "full", "/r",
            new Resource(4096, 4), new Resource(4096, 0)), new NodeView("n:1", "n", "/r",
            new Resource(4096, 4), new Resource(3072, 3))), List.of(
        app("application_1_0001", "default", 10, Ask.anyOf(new Resource(2048, 1), 1), Ask.anyOf(new Resource(1024, 2), 1)),
        app("application_1_0002", "default", 20, Ask.anyOf(new Resource(1024, 1), 1))));
    assertThat(plan.assignments()).singleElement().satisfies(a -> {
      assertThat(a.appId()).isEqualTo("application_1_0002");
      assertThat(a.nodeId()).isEqualTo("n:1");
    });
  }

  @Test
  void queuesTakeTurns() {
    var plan = policy.assign(List.of("a", "b"), List.of(node("n:1", 2048, 8)), List.of(
        app("application_1_0001", "a", 10, Ask.anyOf(GB, 2)),
        app("application_1_0002", "b", 20, Ask.anyOf(GB, 2))));
    assertThat(plan.assignments()).extracting(Assignment::appId)
        .containsExactlyInAnyOrder("application_1_0001", "application_1_0002");
  }

  @Test
  void theAmAskComesBeforeOtherAsksOfTheSameApplication() {
    Ask am = new Ask(0, Ask.ANY, GB, 1, true, -1, true);
    var plan = policy.assign(List.of("default"), List.of(node("n:1", 1024, 8)), List.of(
        app("application_1_0001", "default", 10, Ask.anyOf(GB, 1), am)));
    assertThat(plan.assignments()).singleElement().satisfies(a -> assertThat(a.ask().am()).isTrue());
  }

  @Test
  void amsWaitOnceTheyWouldPassTheAmHeadroomWhileWorkersStillGetRoom() {
    Ask am = new Ask(0, Ask.ANY, GB, 1, true, -1, true);
    // Room for four containers and for two more AMs: the third application's AM waits, and the
    // worker ask of the first takes the space that is left.
    var plan = policy.assign(List.of("default"), List.of(node("n:1", 4096, 8)), List.of(
        app("application_1_0001", "default", 10, am, Ask.anyOf(GB, 1)),
        app("application_1_0002", "default", 20, am),
        app("application_1_0003", "default", 30, am)), new Resource(2048, 2));
    assertThat(plan.assignments()).extracting(a -> a.appId() + (a.ask().am() ? " AM" : " worker"))
        .containsExactlyInAnyOrder("application_1_0001 AM", "application_1_0001 worker", "application_1_0002 AM");
  }

  @Test
  void aStrictHostAskOnlyLandsOnThatHost() {
    // One container on b and nowhere else: b's ask, and * holding the count with relaxLocality off.
    Ask onB = new Ask(1, "b", GB, 1, true, -1, false);
    Ask strictAny = new Ask(1, Ask.ANY, GB, 1, false, -1, false);
    var plan = policy.assign(List.of("default"), List.of(node("a:1", 4096, 8), node("b:1", 4096, 8)), List.of(
        app("application_1_0001", "default", 10, onB, strictAny)));
    assertThat(plan.assignments()).singleElement().satisfies(a -> assertThat(a.nodeId()).isEqualTo("b:1"));
  }

  @Test
  void aHostAskWithoutAStarAskPlacesNothing() {
    // * holds how many containers are wanted, as in YARN: a host ask alone wants none.
    Ask onB = new Ask(1, "b", GB, 1, false, -1, false);
    var plan = policy.assign(List.of("default"), List.of(node("a:1", 4096, 8), node("b:1", 4096, 8)), List.of(
        app("application_1_0001", "default", 10, onB)));
    assertThat(plan.isEmpty()).isTrue();
  }

  @Test
  void aContainerLargerThanAnyNodesFreeSpaceIsNotPlaced() {
    var plan = policy.assign(List.of("default"), List.of(node("a:1", 1024, 8)), List.of(
        app("application_1_0001", "default", 10, Ask.anyOf(new Resource(2048, 1), 1))));
    assertThat(plan.isEmpty()).isTrue();
  }

  @Test
  void applicationsOfUnknownQueuesAreIgnored() {
    var plan = policy.assign(List.of("default"), List.of(node("a:1", 4096, 8)), List.of(
        app("application_1_0001", "elsewhere", 10, Ask.anyOf(GB, 1))));
    assertThat(plan.isEmpty()).isTrue();
  }
}
