package dev.bobbin.core.scheduler;

import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.policy.AllocationPlan;
import dev.bobbin.core.policy.Asks;
import dev.bobbin.core.policy.Assignment;
import dev.bobbin.core.policy.PolicySet;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scheduling passes and the writes of what they place. A placement counts against its node at once
 * and reaches its AM only once its Container entity has persisted it; at most
 * {@code max-allocations-in-flight} writes are pending, and a pass that stopped at that bound waits
 * until half of it is free again.
 */
final class Allocator {
  private static final Logger log = LoggerFactory.getLogger(Allocator.class);

  private final SchedulerModel model;
  private final PolicySet policy;
  private final Lifecycles lifecycles;
  private final SchedulerDeps deps;
  private final ContainerTokens tokens;
  private final Acts acts;
  /** Allocations sent to their Container entity and not yet answered. */
  private int inFlight;
  /** A pass stopped at the in-flight bound: the answer that frees half of it asks for another pass. */
  private boolean throttled;
  private long containersAllocated;

  Allocator(SchedulerModel model, PolicySet policy, Lifecycles lifecycles, SchedulerDeps deps, ContainerTokens tokens,
      Acts acts) {
    this.model = model;
    this.policy = policy;
    this.lifecycles = lifecycles;
    this.deps = deps;
    this.tokens = tokens;
    this.acts = acts;
  }

  long containersAllocated() {
    return containersAllocated;
  }

  /** One pass: the policy's plan for the waiting asks, placed while the in-flight bound allows. */
  void pass() {
    // Throttled, a pass could place only the few allocations just acknowledged, at the cost of a
    // whole pass (O(apps x containers) under fair): wait until half the bound is free again.
    if (throttled) return;
    ModelView view = new ModelView(model);
    if (view.waiting().isEmpty() || view.usableNodes().isEmpty()) return;
    // The plan stops where the in-flight bound would: planning the whole cluster's demand only to
    // place the first part cost a full plan per refill of the bound. The plan is the same prefix either way.
    int max = deps.settings().maxAllocationsInFlight();
    int room = max - inFlight;
    AllocationPlan plan = policy.assign(view, room);
    for (Assignment a : plan.assignments()) {
      if (place(a)) policy.placed(a);
    }
    if (plan.assignments().size() < room) return;
    // What the plan left is the least deserving and stays asked for: planned again once half the
    // bound is free, or at once if placements the plan made stale left it free already.
    if (inFlight > max / 2) throttled = true;
    else acts.scheduleSoon();
  }

  /** @return whether it was placed: the plan is from views that earlier placements may have made stale */
  private boolean place(Assignment a) {
    SchedContainer c = model.place(a, tokens.epoch(), deps.clock().millis());
    if (c == null) return false;
    containersAllocated++;
    log.info("Allocating {} ({}) on {} for {}: {}", c.id(), a.capability(), a.nodeId(), a.attemptId(), a.reason());
    acts.persistAllocation(c);
    inFlight++;
    return true;
  }

  /**
   * The Container entity's answer. Durable, the container goes to its AM, or an AM container is
   * recorded with its application and launched. Refused or unanswered, its space is freed and its
   * ask placed again; an unanswered write may still land, so the entity is told to end it.
   */
  void allocationDone(SchedulerProtocol.AllocationDone m) {
    inFlight--;
    if (throttled && inFlight <= deps.settings().maxAllocationsInFlight() / 2) {
      throttled = false;
      acts.scheduleSoon();
    }
    SchedContainer c = model.container(m.containerId());
    if (c == null || c.phase != SchedContainer.Phase.IN_FLIGHT) return;
    ContainerEntity.Allocation a = c.allocation;
    SchedApp app = model.appOfAttempt(a.attemptId());
    if (m.error() != null) {
      log.warn("Allocation of {} failed to persist: {}", m.containerId(), m.error());
      if (!m.answered()) acts.withdraw(m.containerId());
      model.unplace(c);
      // The asks the placement took from get their container back, each at its own level and with
      // its own relaxLocality, so that a strict request stays strict when it is placed again.
      if (app != null) app.setAsks(Asks.restored(List.copyOf(app.asks()), c.charged));
      return;
    }
    model.setPhase(c, SchedContainer.Phase.ALLOCATED);
    if (app == null) {
      // The attempt ended while the write was pending.
      lifecycles.release(c, "Container allocated to an attempt that has ended");
      return;
    }
    if (a.am()) {
      model.heardFromAm(app, deps.clock().millis());
      acts.write(new Write.AssignAmContainer(a));
      acts.launchAm(a, app);
    } else {
      app.newlyAllocated.add(tokens.container(a, app.user));
    }
  }
}
