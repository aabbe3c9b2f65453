package dev.bobbin.core.policy.capacity;

import dev.bobbin.config.capacity.PreemptionSettings;
import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.ClusterView;
import dev.bobbin.core.policy.ContainerSnapshot;
import dev.bobbin.core.policy.PolicyUpdate;
import dev.bobbin.core.policy.StarvationClocks;
import dev.bobbin.core.policy.capacity.preemption.CandidateContainer;
import dev.bobbin.core.policy.capacity.preemption.PreemptionRound;
import dev.bobbin.core.policy.capacity.preemption.ProportionalPreemptionSettings;
import dev.bobbin.core.policy.capacity.preemption.ReservedContainer;
import dev.bobbin.core.policy.capacity.preemption.UserHeadroom;
import dev.bobbin.core.policy.capacity.preemption.Victim;
import dev.bobbin.protocol.Resource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The capacity policy's proportional preemption between passes: each round run on the scheduler's
 * view ({@link PreemptionRound}), the marks carried from one round to the next, and the round's
 * outcome as the scheduler carries it out. Newly marked containers become receipts (their AMs are
 * told), containers chosen again after {@code max_wait_before_kill} are killed, and a container
 * whose mark the round dropped is cancelled: its AM stops hearing of it.
 *
 * <p>The marks live in this policy instance only. A scheduler that takes over starts without them:
 * a container a previous scheduler marked is cancelled at the first round unless that round chooses
 * it again, and then its wait starts afresh.
 */
final class CapacityPreemption {
  private ProportionalPreemptionSettings settings;
  private Map<String, Long> marks = new LinkedHashMap<>();
  /** Containers this policy had killed that have not ended yet: as good as gone, as they are in Hadoop. */
  private final Set<String> killing = new LinkedHashSet<>();
  /** The reservations the last round cancelled, by their ids. */
  private List<String> reservationsCancelled = List.of();
  /** The last round, for the log and the tests; null before the first. */
  private PreemptionRound.Result last;

  CapacityPreemption(PreemptionSettings settings) {
    configure(settings);
  }

  void configure(PreemptionSettings s) {
    settings = s.enabled() ? new ProportionalPreemptionSettings(s.observeOnly(), s.monitoringInterval(),
        s.maxWaitBeforeKill(), s.totalPreemptionPerRound(), s.maxIgnoredOverCapacity(), s.naturalTerminationFactor())
        : null;
  }

  boolean enabled() {
    return settings != null;
  }

  Duration interval() {
    return settings.monitoringInterval();
  }

  PreemptionRound.Result last() {
    return last;
  }

  /** The ids of the reservations the last round cancelled; none after an observe-only round. */
  List<String> reservationsCancelled() {
    return reservationsCancelled;
  }

  /**
   * One round over the activated applications (those the AM limit still holds back ask for nothing
   * preemption could free, as in Hadoop).
   */
  PolicyUpdate round(CapacityTree tree, ClusterView cluster, Set<String> activated, long now) {
    return round(tree, cluster, activated, List.of(), now);
  }

  /**
   * @param reservations the node reservations of the capacity policy's passes: a round reads them
   *     as reserved resources of their queues and cancels those of the applications it looks at
   */
  PolicyUpdate round(CapacityTree tree, ClusterView cluster, Set<String> activated,
      List<ReservedContainer> reservations, long now) {
    reservationsCancelled = List.of();
    if (settings == null) return PolicyUpdate.NONE;
    killing.retainAll(cluster.preempting());
    Map<String, Resource> dying = new HashMap<>();
    List<CandidateContainer> containers = new ArrayList<>();
    for (ContainerSnapshot c : cluster.preemptable()) {
      if (!activated.contains(c.appId())) continue;
      if (killing.contains(c.containerId())) {
        dying.merge(c.appId(), c.resource(), Resource::plus);
      } else {
        containers.add(new CandidateContainer(c, c.requestPriority(), c.allocationRequestId()));
      }
    }
    List<AppSnapshot> apps = new ArrayList<>();
    for (AppSnapshot a : cluster.apps()) {
      if (!activated.contains(a.appId()) || !tree.contains(a.queuePath()) || !tree.spec(a.queuePath()).isLeaf()) continue;
      Resource gone = dying.get(a.appId());
      apps.add(gone == null ? a : new AppSnapshot(a.appId(), a.attemptId(), a.queuePath(), a.priority(),
          a.submitTime(), a.usage().minus(gone), a.amUsage(), a.pending(), a.largestPendingAsk()));
    }
    Map<String, String> users = cluster.users();
    List<ReservedContainer> theirs = reservations.stream().filter(r -> activated.contains(r.appId())).toList();
    PreemptionRound.Input input = new PreemptionRound.Input(tree, apps, containers, theirs, users,
        headroom(tree, apps, users));
    PreemptionRound.Result result = PreemptionRound.run(input, settings, marks, now);
    last = result;
    if (result.observeOnly()) return PolicyUpdate.observing(result.observed());
    marks = new LinkedHashMap<>(result.marks());
    reservationsCancelled = result.reservationsToCancel().stream().map(ReservedContainer::reservationId).toList();
    List<String> kills = result.toKill().stream().map(Victim::id).toList();
    killing.addAll(kills);
    List<String> cancelled = new ArrayList<>();
    for (String id : cluster.preempting()) {
      if (!marks.containsKey(id) && !killing.contains(id)) cancelled.add(id);
    }
    return new PolicyUpdate(result.receipts(), StarvationClocks.EMPTY, kills, cancelled, List.of());
  }

  /** Each leaf's user limits for its active users, as the assigner computes them. */
  private static UserHeadroom headroom(CapacityTree tree, List<AppSnapshot> apps, Map<String, String> users) {
    Map<String, Map<String, Resource>> used = new LinkedHashMap<>();
    Map<String, Set<String>> asking = new HashMap<>();
    for (AppSnapshot a : apps) {
      String user = users.get(a.appId());
      if (user == null) continue;
      used.computeIfAbsent(a.queuePath(), k -> new LinkedHashMap<>()).merge(user, a.usage(), Resource::plus);
      if (!a.pending().equals(Resource.NONE)) asking.computeIfAbsent(a.queuePath(), k -> new LinkedHashSet<>()).add(user);
    }
    Map<String, UserLimits.Result> limits = new HashMap<>();
    used.forEach((leaf, byUser) -> {
      List<UserLimits.UserUsage> usages = new ArrayList<>();
      Set<String> active = asking.getOrDefault(leaf, Set.of());
      byUser.forEach((user, r) -> usages.add(new UserLimits.UserUsage(user, r, active.contains(user))));
      limits.put(leaf, UserLimits.compute(tree, leaf, usages, UserLimits.Mode.ACTIVE_USERS));
    });
    return UserHeadroom.from(tree, limits);
  }
}
