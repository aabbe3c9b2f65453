package dev.bobbin.core.scheduler;

import dev.bobbin.config.QueuePath;
import dev.bobbin.core.app.PreemptionRecord;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.policy.AllocationLimits;
import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.capacity.preemption.PreemptionRound;
import dev.bobbin.core.scheduler.SchedulerProtocol.AmOutcome;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.am.AllocateRequest;
import dev.bobbin.protocol.am.AllocateResponse;
import dev.bobbin.protocol.am.Container;
import dev.bobbin.protocol.am.PreemptionMessage;
import dev.bobbin.protocol.am.RegisterAmResponse;
import dev.bobbin.protocol.am.ResourceRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The ApplicationMasterProtocol's side of the model: registration, response ids, asks, and what
 * each allocate response hands over. It sends nothing; the scheduler actor carries out the
 * {@link AllocateStep}.
 */
final class AmProtocol {
  private final SchedulerModel model;
  private final AllocationLimits limits;
  /** The container sizes each leaf grants. */
  private final Function<QueuePath, AllocationLimits> limitsIn;
  private Resource headroom = Resource.NONE;
  private int usableNodes;

  AmProtocol(SchedulerModel model, AllocationLimits limits) {
    this(model, limits, leaf -> limits);
  }

  AmProtocol(SchedulerModel model, AllocationLimits limits, Function<QueuePath, AllocationLimits> limitsIn) {
    this.model = model;
    this.limits = limits;
    this.limitsIn = limitsIn;
  }

  /**
   * What an allocate call leads to besides its answer.
   *
   * @param appId the attempt's application; null when the call was refused
   * @param delivered containers whose completion the AM has now shown it received: its Application
   *     entity records them
   * @param toRelease containers the AM gave back
   * @param asked whether the call reached the scheduling part (asks may have changed): a wave follows
   */
  record AllocateStep(AmOutcome<AllocateResponse> reply, String appId, List<String> delivered,
      List<SchedContainer> toRelease, boolean asked) {
    static AllocateStep answer(AmOutcome<AllocateResponse> reply) {
      return new AllocateStep(reply, null, List.of(), List.of(), false);
    }
  }

  AmOutcome<RegisterAmResponse> register(String attemptId, long now) {
    return register(attemptId, now, (a, user) -> new Container(a.containerId(), a.nodeId(), a.nodeHttpAddress(),
        a.resource(), a.priority(), "", a.allocationRequestId()));
  }

  /**
   * @param handOver the container as the AM gets it, with a token for its user: for the containers
   *     earlier attempts left to this one, the AM's credentials to reach their NodeManagers
   */
  AmOutcome<RegisterAmResponse> register(String attemptId, long now,
      BiFunction<ContainerEntity.Allocation, String, Container> handOver) {
    SchedApp app = model.appOfAttempt(attemptId);
    if (app == null) return unknownAttempt(attemptId);
    model.heardFromAm(app, now);
    // Registered already: a register that arrives late or twice (the AM's retry, or one relayed by
    // a member that was cut off meanwhile) gets the first one's answer and changes nothing. Starting
    // the response ids again would refuse the AM's next allocate, and lose what it has not yet had.
    // An AM that must start over (a recovered scheduler) is one this scheduler has not registered.
    if (!app.registered) {
      app.registered = true;
      app.lastResponse = new AllocateResponse(0, List.of(), List.of(), Resource.NONE, 0, null);
    }
    List<Container> previous = new ArrayList<>();
    for (ContainerEntity.Allocation a : app.fromPreviousAttempts(model)) previous.add(handOver.apply(a, app.user));
    return AmOutcome.ok(new RegisterAmResponse(limitsIn.apply(app.queue).maximum(), app.queue.relative(), previous));
  }

  AllocateStep allocate(String attemptId, AllocateRequest req, long now) {
    SchedApp app = model.appOfAttempt(attemptId);
    if (app == null) return AllocateStep.answer(unknownAttempt(attemptId));
    if (!app.registered) return AllocateStep.answer(notRegistered(attemptId));
    model.heardFromAm(app, now);
    AllocateResponse last = app.lastResponse;
    if (last.responseId() == 0 && req.responseId() != 0) {
      // The AM speaks from a registration of an earlier scheduler, and this one's came from a
      // register that reached it late: registering again (which changes nothing here) starts the AM at 0.
      return AllocateStep.answer(notRegistered(attemptId));
    }
    // The AM did not get the last answer (the call failed on the way back, say through a member
    // that went away) and asks again as it did then: the same answer, and nothing allocated twice.
    if (req.responseId() + 1 == last.responseId()) return AllocateStep.answer(AmOutcome.ok(last));
    if (req.responseId() != last.responseId()) {
      return AllocateStep.answer(AmOutcome.error("InvalidApplicationMasterRequestException",
          "Invalid responseId in AllocateRequest from application attempt: " + attemptId
              + ", expect responseId to be " + last.responseId() + ", but get " + req.responseId()));
    }
    // Asking with the last response's id says the AM has that response: only now are its
    // completions delivered. Marked when sent, they were lost for good when the response was (the
    // member relaying it died) and a new scheduler took over before the AM asked again.
    List<String> delivered = last.completedContainerStatuses().stream().map(ContainerStatus::containerId).toList();
    app.delivered(delivered);
    app.progress = Float.isNaN(req.progress()) ? 0 : Math.max(0, Math.min(1, req.progress()));
    AllocationLimits sizes = limitsIn.apply(app.queue);
    for (ResourceRequest r : req.ask()) {
      app.replaceAsk(new Ask(r.priority(), r.resourceName(), sizes.normalize(r.capability()),
          r.numContainers(), r.relaxLocality(), r.allocationRequestId(), false));
    }
    List<SchedContainer> toRelease = new ArrayList<>();
    for (String id : req.release()) {
      SchedContainer c = model.container(id);
      if (c != null && (c.allocation.attemptId().equals(attemptId) || app.kept.contains(id))) toRelease.add(c);
    }
    AllocateResponse resp = new AllocateResponse(last.responseId() + 1, List.copyOf(app.newlyAllocated),
        List.copyOf(app.completed), headroom, usableNodes, null, preemptionMessage(app));
    app.newlyAllocated.clear();
    app.completed.clear();
    app.lastResponse = resp;
    return new AllocateStep(AmOutcome.ok(resp), app.appId, delivered, toRelease, true);
  }

  /**
   * The free space and usable nodes AMs are told, as of the scheduler's last tick
   * (allocation-interval): summing every node on each allocate call would make the AM protocol
   * O(nodes), and after each wave made paced heartbeats O(nodes) each (a wave follows nearly every
   * heartbeat when they arrive spread out: half the RM's CPU at 10,000 nodes). YARN's headroom is
   * an estimate too.
   */
  void refreshHeadroom() {
    long memory = 0;
    int vCores = 0;
    int usable = 0;
    for (SchedNode n : model.nodes()) {
      if (!n.state.isUsable()) continue;
      usable++;
      Resource free = n.capacity().minus(n.allocated);
      memory += Math.max(0, free.memory());
      vCores += Math.max(0, free.vCores());
    }
    headroom = new Resource(memory, vCores);
    usableNodes = usable;
  }

  /**
   * Every container of this application being taken back. The Fair policy's are a strict contract.
   * The capacity policy's are a negotiable one, as Hadoop's CapacityScheduler sends them: the
   * containers, and one request at {@code *} for as many minimum allocations as they hold, which
   * the AM may give back instead. It reads the preemptions under way, few or none, not the
   * application's containers, which an allocate call would otherwise walk every time.
   */
  private PreemptionMessage preemptionMessage(SchedApp app) {
    List<PreemptionMessage.PreemptedContainer> strict = new ArrayList<>();
    List<PreemptionMessage.PreemptedContainer> negotiable = new ArrayList<>();
    Resource negotiableTotal = Resource.NONE;
    for (PreemptionRecord r : model.preempting().all()) {
      if (!r.victimAppId().equals(app.appId) || !app.containers.contains(r.containerId())) continue;
      var container = new PreemptionMessage.PreemptedContainer(r.containerId(), r.killAt(), r.reason());
      if (PreemptionRound.KIND.equals(r.kind())) {
        negotiable.add(container);
        negotiableTotal = negotiableTotal.plus(r.resource());
      } else {
        strict.add(container);
      }
    }
    if (strict.isEmpty() && negotiable.isEmpty()) return null;
    List<ResourceRequest> resources = negotiable.isEmpty() ? List.of()
        : List.of(new ResourceRequest(-1, Ask.ANY, limits.minimum(), minimumAllocations(negotiableTotal), true, -1));
    return new PreemptionMessage(strict, negotiable, resources);
  }

  /** How many minimum allocations {@code total} holds, rounded up, counted by its larger part. */
  private int minimumAllocations(Resource total) {
    Resource min = limits.minimum();
    double byMemory = min.memory() > 0 ? (double) total.memory() / min.memory() : 0;
    double byVcores = min.vCores() > 0 ? (double) total.vCores() / min.vCores() : 0;
    return (int) Math.ceil(Math.max(byMemory, byVcores));
  }

  private static <T> AmOutcome<T> notRegistered(String attemptId) {
    return AmOutcome.error("ApplicationMasterNotRegisteredException",
        "AM is not registered for known application attempt: " + attemptId
            + " or RM had restarted after AM registered. AM should re-register.");
  }

  private static <T> AmOutcome<T> unknownAttempt(String attemptId) {
    return AmOutcome.error("ApplicationAttemptNotFoundException",
        "Application attempt " + attemptId + " doesn't exist in ApplicationMasterService cache.");
  }
}
