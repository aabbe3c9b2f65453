package dev.bobbin.core.scheduler;

import dev.bobbin.config.QueuePath;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.Assignment;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The model against plans made from stale views: whatever placements it is given, in whatever
 * order, with completions and failed allocation writes between them, no node is ever
 * over-committed, and a node's allocated resources are exactly those of the containers counted on it.
 * The allocation expiry's index holds exactly the durable containers not yet started, oldest first,
 * and the application's index exactly its live containers.
 */
class SchedulerModelPropertiesTest {
  private static final String APP = "application_1795502072393_0001";
  private static final String ATTEMPT = "appattempt_1795502072393_0001_000002";
  private static final String OLD_ATTEMPT = "appattempt_1795502072393_0001_000001";

  sealed interface Step {}

  /** A placement as a plan made from some earlier view might ask for it. */
  record Place(int node, int gb, int vCores, boolean staleAttempt) implements Step {}

  /** The completion of the {@code pick}-th live container (modulo how many there are), if any. */
  record Complete(int pick) implements Step {}

  /** The allocation write of the {@code pick}-th placement still in flight failed, if there is one. */
  record WriteFailed(int pick) implements Step {}

  /** The allocation write of the {@code pick}-th placement in flight was acknowledged, if there is one. */
  record Durable(int pick) implements Step {}

  /** The {@code pick}-th durable container's NM reported it running, if there is one. */
  record Started(int pick) implements Step {}

  @Property(tries = 300)
  void noNodeIsOverCommittedAndEachCountsExactlyItsContainers(
      @ForAll @Size(min = 1, max = 4) List<@IntRange(min = 1, max = 16) Integer> nodeGbs,
      @ForAll("steps") @Size(max = 80) List<Step> steps) {
    SchedulerModel model = modelWith(nodeGbs);
    long now = 0;
    for (Step step : steps) {
      now += 1;
      if (step instanceof Place p) {
        String nodeId = "node-" + (p.node() % nodeGbs.size());
        Resource ask = Resource.of(p.gb() * 1024L, p.vCores());
        boolean fits = model.node(nodeId).view().free().fits(ask);
        // Placed at a time drawn from a window, as writes are acknowledged out of order.
        SchedContainer c = model.place(assignment(nodeId, ask, p.staleAttempt()), 1, now + p.gb() % 3);
        assertThat(c != null).as("placed %s on %s", ask, nodeId).isEqualTo(fits && !p.staleAttempt());
      } else if (step instanceof Complete done) {
        List<SchedContainer> live = new ArrayList<>(model.containers());
        if (live.isEmpty()) continue;
        SchedContainer c = live.get(done.pick() % live.size());
        model.startCompletion(c);
        model.startCompletion(c);
        model.untrack(c.id());
      } else if (step instanceof WriteFailed failed) {
        List<SchedContainer> inFlight = inPhase(model, SchedContainer.Phase.IN_FLIGHT);
        if (inFlight.isEmpty()) continue;
        SchedContainer c = inFlight.get(failed.pick() % inFlight.size());
        model.unplace(c);
        assertThat(model.container(c.id())).isNull();
        assertThat(model.app(APP).containers).doesNotContain(c.id());
      } else if (step instanceof Durable durable) {
        List<SchedContainer> inFlight = inPhase(model, SchedContainer.Phase.IN_FLIGHT);
        if (inFlight.isEmpty()) continue;
        model.setPhase(inFlight.get(durable.pick() % inFlight.size()), SchedContainer.Phase.ALLOCATED);
      } else if (step instanceof Started started) {
        List<SchedContainer> allocated = inPhase(model, SchedContainer.Phase.ALLOCATED);
        if (allocated.isEmpty()) continue;
        SchedContainer c = allocated.get(started.pick() % allocated.size());
        SchedNode node = model.node(c.allocation.nodeId());
        model.readReport(node, List.of(ContainerStatus.running(c.id(), c.allocation.resource())));
      }
      List<SchedContainer> unstarted = model.unstartedBefore(Long.MAX_VALUE);
      assertThat(unstarted).containsExactlyInAnyOrderElementsOf(inPhase(model, SchedContainer.Phase.ALLOCATED));
      assertThat(unstarted).isSortedAccordingTo(Comparator.comparingLong(c -> c.allocatedTime));
      assertThat(model.liveContainersOf(APP)).containsExactlyInAnyOrderElementsOf(model.containers());
      for (SchedNode node : model.nodes()) {
        Resource counted = Resource.NONE;
        for (String id : node.containers) counted = counted.plus(model.container(id).allocation.resource());
        assertThat(node.allocated).as("allocated on %s", node.id()).isEqualTo(counted);
        assertThat(node.allocated.memory()).isLessThanOrEqualTo(node.capacity().memory());
        assertThat(node.allocated.vCores()).isLessThanOrEqualTo(node.capacity().vCores());
      }
    }
  }

  @Provide
  Arbitrary<List<Step>> steps() {
    Arbitrary<Step> place = Combinators.combine(Arbitraries.integers().between(0, 3),
            Arbitraries.integers().between(1, 8), Arbitraries.integers().between(1, 8),
            Arbitraries.of(false, false, false, true))
        .as(Place::new);
    Arbitrary<Step> complete = Arbitraries.integers().between(0, 1000).map(Complete::new);
    Arbitrary<Step> writeFailed = Arbitraries.integers().between(0, 1000).map(WriteFailed::new);
    Arbitrary<Step> durable = Arbitraries.integers().between(0, 1000).map(Durable::new);
    Arbitrary<Step> started = Arbitraries.integers().between(0, 1000).map(Started::new);
    return Arbitraries.frequencyOf(Tuple.of(3, place), Tuple.of(1, complete), Tuple.of(1, writeFailed),
            Tuple.of(2, durable), Tuple.of(1, started))
        .list().ofMaxSize(80);
  }

  private static List<SchedContainer> inPhase(SchedulerModel model, SchedContainer.Phase phase) {
    return model.containers().stream().filter(c -> c.phase == phase).toList();
  }

  private static SchedulerModel modelWith(List<Integer> nodeGbs) {
    SchedulerModel model = new SchedulerModel();
    for (int i = 0; i < nodeGbs.size(); i++) {
      String id = "node-" + i;
      Resource capacity = Resource.of(nodeGbs.get(i) * 1024L, nodeGbs.get(i));
      model.putNode(new SchedNode(new NodeEntity.Registration(id, "host-" + i, "host-" + i + ":8042",
          "/default-rack", capacity), 0));
    }
    SchedApp app = model.follow(APP, QueuePath.of("default"), "alice", 0, 0, Resource.of(1024, 1), null);
    model.startAttempt(app, ATTEMPT);
    return model;
  }

  private static Assignment assignment(String nodeId, Resource capability, boolean staleAttempt) {
    Ask ask = new Ask(1, Ask.ANY, capability, 1, true, 0, false);
    return new Assignment(APP, staleAttempt ? OLD_ATTEMPT : ATTEMPT, nodeId, ask, "test");
  }
}
