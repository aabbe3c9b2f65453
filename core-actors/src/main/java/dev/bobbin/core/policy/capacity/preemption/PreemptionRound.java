package dev.bobbin.core.policy.capacity.preemption;

import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.Preemption;
import dev.bobbin.core.policy.capacity.CapacityTree;
import dev.bobbin.core.policy.capacity.preemption.VictimSelection.Selection;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One round of Hadoop's {@code ProportionalCapacityPreemptionPolicy.editSchedule}: the ideal
 * assignment, the victims, and what becomes of each victim given when it was first marked.
 *
 * <ul>
 *   <li>A container chosen for the first time is marked now: its AM is told it is wanted back.
 *   <li>A container chosen again once {@code max_wait_before_kill} has passed since it was marked is
 *       killed, and its mark forgotten. One chosen again sooner waits; its AM was already told.
 *   <li>A container no longer chosen is not killed; its mark is kept until more than twice
 *       {@code max_wait_before_kill} has passed, so that if it is chosen again before then it is
 *       killed at once, and after that it is marked afresh. Marks of containers that are gone are
 *       dropped.
 *   <li>Node reservations of the applications looked at are cancelled at once.
 *   <li>With {@code observe_only} the round is computed and reported, and nothing is marked, killed
 *       or cancelled; the marks stay as they were.
 * </ul>
 *
 * <p>Out of scope, as in Hadoop's defaults: node labels (one partition), intra-queue preemption (user
 * limits and application priorities within a queue), lazy preemption, the selectors for reserved
 * containers and for queue priorities, and balancing queues beyond their guarantees.
 */
public final class PreemptionRound {
  /** The kind a capacity preemption is recorded under. */
  public static final String KIND = "CAPACITY";

  private PreemptionRound() {}

  /**
   * What a round reads.
   *
   * @param apps the activated applications; queues are full paths of leaves. Applications still
   *     held back by the AM limit are left out, as Hadoop leaves their asks out of a leaf's demand
   * @param containers their live containers, AM containers included
   * @param reservations their node reservations
   * @param users the user of each application, read where {@code headroom} limits a leaf
   */
  public record Input(CapacityTree tree, List<AppSnapshot> apps, List<CandidateContainer> containers,
      List<ReservedContainer> reservations, Map<String, String> users, UserHeadroom headroom) {
    public Input {
      Objects.requireNonNull(tree, "tree");
      apps = List.copyOf(apps);
      containers = List.copyOf(containers);
      reservations = List.copyOf(reservations);
      users = Map.copyOf(users);
      Objects.requireNonNull(headroom, "headroom");
    }

    /** Without reservations and without user limits. */
    public static Input of(CapacityTree tree, List<AppSnapshot> apps, List<CandidateContainer> containers) {
      return new Input(tree, apps, containers, List.of(), Map.of(), UserHeadroom.UNLIMITED);
    }
  }

  /**
   * @param toMark containers chosen for the first time: their AMs are to be told
   * @param toKill containers chosen again after the wait: to be killed
   * @param waiting containers chosen again within the wait
   * @param reservationsToCancel node reservations to cancel now
   * @param marks what to pass to the next round: container id to when it was first marked
   */
  public record Result(
      boolean observeOnly, long now, IdealAssignment ideal, Selection selection, List<Victim> toMark,
      List<Victim> toKill, List<Victim> waiting, List<ReservedContainer> reservationsToCancel,
      Map<String, Long> marks) {
    public Result {
      toMark = List.copyOf(toMark);
      toKill = List.copyOf(toKill);
      waiting = List.copyOf(waiting);
      reservationsToCancel = List.copyOf(reservationsToCancel);
      marks = Collections.unmodifiableMap(new LinkedHashMap<>(marks));
    }

    /**
     * The newly marked containers as the receipts every preemption leaves: one per node, a victim
     * entry per container with its reason. No application is starved here: the starved queue names
     * the leaves preemption frees resources for, and the starved application is null.
     */
    public List<Preemption> receipts() {
      return receipts(toMark);
    }

    /** With {@code observe_only}: the receipts the round's containers would have had, had it marked them. */
    public List<Preemption> observed() {
      return receipts(selection.victims().stream().filter(v -> v.kind() != Victim.Kind.RESERVATION).toList());
    }

    private List<Preemption> receipts(List<Victim> victims) {
      String forQueues = String.join(",", ideal.gaining());
      Map<String, List<Preemption.Victim>> byNode = new LinkedHashMap<>();
      for (Victim v : victims) {
        byNode.computeIfAbsent(v.nodeId(), k -> new ArrayList<>())
            .add(new Preemption.Victim(v.appId(), List.of(v.id()), v.reason()));
      }
      List<Preemption> out = new ArrayList<>();
      byNode.forEach((node, onNode) -> out.add(new Preemption(null, forQueues, KIND, node, onNode)));
      return out;
    }
  }

  /**
   * @param marks what the previous round returned ({@link Result#marks()}); empty for the first
   * @param now the time of this round, in milliseconds
   */
  public static Result run(Input in, ProportionalPreemptionSettings settings, Map<String, Long> marks, long now) {
    return run(in, LeafLoad.of(in.tree(), in.apps(), in.reservations(), in.users(), in.headroom()), settings, marks,
        now);
  }

  /** With the leaves' loads given rather than taken from the applications. */
  static Result run(Input in, Map<String, LeafLoad> loads, ProportionalPreemptionSettings settings,
      Map<String, Long> marks, long now) {
    IdealAssignment ideal = IdealAssignment.compute(in.tree(), loads, settings);
    Selection selection = VictimSelection.select(in.tree(), ideal, in.apps(), in.containers(), in.reservations());
    if (settings.observeOnly()) {
      return new Result(true, now, ideal, selection, List.of(), List.of(), List.of(), List.of(), marks);
    }
    long wait = settings.maxWaitBeforeKill().toMillis();
    Set<String> live = new HashSet<>();
    for (CandidateContainer c : in.containers()) live.add(c.containerId());
    Map<String, Long> next = new LinkedHashMap<>();
    marks.forEach((id, at) -> {
      if (live.contains(id)) next.put(id, at);
    });
    List<Victim> toMark = new ArrayList<>();
    List<Victim> toKill = new ArrayList<>();
    List<Victim> waiting = new ArrayList<>();
    for (Victim v : selection.victims()) {
      if (v.kind() == Victim.Kind.RESERVATION) continue;
      Long at = next.get(v.id());
      if (at == null) {
        next.put(v.id(), now);
        toMark.add(v);
      } else if (at + wait <= now) {
        next.remove(v.id());
        toKill.add(v);
      } else {
        waiting.add(v);
      }
    }
    next.values().removeIf(at -> at + 2 * wait < now);
    return new Result(false, now, ideal, selection, toMark, toKill, waiting, selection.reservationsLookedAt(), next);
  }
}
