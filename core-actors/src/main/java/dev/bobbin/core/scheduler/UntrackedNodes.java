package dev.bobbin.core.scheduler;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dead nodes forgotten, as YARN's NodesListManager removes untracked inactive nodes: a node that is
 * no longer live (LOST, DECOMMISSIONED, SHUTDOWN) and whose host the host lists no longer track
 * leaves the node list, and the journal, once it has been untracked for the removal timeout; a
 * scheduler that takes over then neither lists it nor waits for it.
 */
final class UntrackedNodes {
  private static final Logger log = LoggerFactory.getLogger(UntrackedNodes.class);

  private final SchedulerModel model;
  private final SchedulerDeps deps;
  private final Acts acts;

  UntrackedNodes(SchedulerModel model, SchedulerDeps deps, Acts acts) {
    this.model = model;
    this.deps = deps;
    this.acts = acts;
  }

  /** With every tick. */
  void forget() {
    long now = deps.clock().millis();
    for (SchedNode node : List.copyOf(model.nodes())) {
      boolean dead = !node.state.isAnswered() && !node.awaitingResync;
      if (!dead || !deps.untrackedHost().test(node.registration.host())) {
        node.untrackedSince = 0;
      } else if (node.untrackedSince == 0) {
        node.untrackedSince = now;
      } else if (now - node.untrackedSince > deps.untrackedRemoval().toMillis()) {
        log.info("Forgetting {} node {}: its host is in no host list for more than {}", node.state, node.id(),
            deps.untrackedRemoval());
        model.removeNode(node.id());
        acts.write(new Write.ForgetNode(node.id()));
      }
    }
  }
}
