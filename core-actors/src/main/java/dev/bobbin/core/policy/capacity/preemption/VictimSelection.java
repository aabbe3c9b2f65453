package dev.bobbin.core.policy.capacity.preemption;

import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.capacity.CapacityQueueSpec;
import dev.bobbin.core.policy.capacity.CapacityTree;
import dev.bobbin.core.policy.capacity.ResourceMath;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which containers give back what each leaf owes this round, as Hadoop's
 * {@code FifoCandidatesSelector} picks them.
 *
 * <ul>
 *   <li>Leaves with preemption disabled are skipped; the others are visited in Hadoop's order
 *       ({@link VictimOrder#leaves}).
 *   <li>A leaf's applications are taken in the reverse of the order it serves them: under FIFO the
 *       lowest priority and the newest first. Each application gives its node reservations first,
 *       then its containers, the least important request and the newest container first. AM
 *       containers are set aside.
 *   <li>A container is taken while the leaf still owes something, if it fits in what is left of the
 *       round's allowance and lessens what the leaf owes in some resource; so the last one taken may
 *       be larger than what was left.
 *   <li>If the leaf still owes, the AM containers set aside are taken in the order met, while the
 *       AM containers not taken hold more than {@code maximum-am-resource-percent} of the leaf's
 *       guarantee.
 * </ul>
 *
 * <p>Hadoop cancels every reservation of an application it looks at, whether or not it counts it;
 * {@link Selection#reservationsLookedAt()} lists them.
 */
public final class VictimSelection {
  private VictimSelection() {}

  /**
   * @param leftToObtain what each leaf that owed something still owes after the selection
   * @param allowanceLeft what is left of the round's allowance
   */
  public record Selection(List<Victim> victims, List<ReservedContainer> reservationsLookedAt,
      Map<String, Resource> leftToObtain, Resource allowanceLeft) {
    public Selection {
      victims = List.copyOf(victims);
      reservationsLookedAt = List.copyOf(reservationsLookedAt);
      leftToObtain = Collections.unmodifiableMap(new LinkedHashMap<>(leftToObtain));
    }
  }

  public static Selection select(CapacityTree tree, IdealAssignment ideal, List<AppSnapshot> apps,
      List<CandidateContainer> containers, List<ReservedContainer> reservations) {
    Map<String, List<AppSnapshot>> appsByLeaf = new LinkedHashMap<>();
    for (AppSnapshot a : apps) appsByLeaf.computeIfAbsent(a.queuePath(), k -> new ArrayList<>()).add(a);
    Map<String, List<CandidateContainer>> containersByApp = new LinkedHashMap<>();
    for (CandidateContainer c : containers) containersByApp.computeIfAbsent(c.appId(), k -> new ArrayList<>()).add(c);
    Map<String, List<ReservedContainer>> reservationsByApp = new LinkedHashMap<>();
    for (ReservedContainer r : reservations) {
      reservationsByApp.computeIfAbsent(r.appId(), k -> new ArrayList<>()).add(r);
    }

    Round round = new Round(tree.resourceMath(), ideal, ideal.totalPreemptionAllowed());
    for (String leaf : VictimOrder.leaves(tree)) {
      QueueAssignment q = ideal.queue(leaf);
      if (q.preemptionDisabled()) continue;
      CapacityQueueSpec spec = tree.spec(leaf);
      List<AppSnapshot> order = VictimOrder.applications(spec.orderingPolicy(),
          appsByLeaf.getOrDefault(leaf, List.of()));
      round.leaf(q, spec, order, containersByApp, reservationsByApp);
    }
    return new Selection(round.victims, round.reservationsLookedAt, round.leftToObtain, round.allowance);
  }

  /** The state of one selection: what is chosen and what is left. */
  private static final class Round {
    private final ResourceMath rc;
    private final IdealAssignment ideal;
    private final List<String> gaining;
    private final Resource cluster;
    private final Resource allowanceAtStart;
    private Resource allowance;
    private final Set<String> chosen = new HashSet<>();
    private final List<Victim> victims = new ArrayList<>();
    private final List<ReservedContainer> reservationsLookedAt = new ArrayList<>();
    private final Map<String, Resource> leftToObtain = new LinkedHashMap<>();
    /** What the current leaf still owes; null once it owes nothing. */
    private Resource owed;

    Round(ResourceMath rc, IdealAssignment ideal, Resource allowance) {
      this.rc = rc;
      this.ideal = ideal;
      this.gaining = ideal.gaining();
      this.cluster = ideal.cluster();
      this.allowanceAtStart = allowance;
      this.allowance = allowance;
    }

    void leaf(QueueAssignment q, CapacityQueueSpec spec, List<AppSnapshot> order,
        Map<String, List<CandidateContainer>> containersByApp, Map<String, List<ReservedContainer>> reservationsByApp) {
      owed = rc.greaterThan(cluster, q.toObtain(), Resource.NONE) ? q.toObtain() : null;
      if (owed == null) return;
      List<CandidateContainer> amsSetAside = new ArrayList<>();
      Resource amsHeld = Resource.NONE;
      int place = 0;
      for (AppSnapshot app : order) {
        place++;
        if (owed == null) break;
        String where = place + " of " + order.size() + " in " + q.path() + "'s preemption order ("
            + spec.orderingPolicy().configName() + ", the reverse of the order it serves them)";
        for (ReservedContainer r : reservationsByApp.getOrDefault(app.appId(), List.of())) {
          if (chosen.contains(r.reservationId())) continue;
          if (owed == null) break;
          take(q, r.reservationId(), app.appId(), r.nodeId(), r.resource(), Victim.Kind.RESERVATION,
              "application " + app.appId() + " is " + where + "; its reservations go before its containers");
          reservationsLookedAt.add(r);
        }
        for (CandidateContainer c : VictimOrder.containers(containersByApp.getOrDefault(app.appId(), List.of()))) {
          if (owed == null) break;
          if (chosen.contains(c.containerId())) continue;
          if (c.container().am()) {
            amsSetAside.add(c);
            amsHeld = amsHeld.plus(c.container().resource());
            continue;
          }
          take(q, c.containerId(), app.appId(), c.container().nodeId(), c.container().resource(), Victim.Kind.CONTAINER,
              "application " + app.appId() + " is " + where + "; request priority " + c.requestPriority()
                  + ", its newest containers of its least important requests first");
        }
      }
      Resource amShare = ResourceMath.multiplyAndRoundDown(q.guaranteed(), spec.maximumAmResourcePercent());
      for (CandidateContainer c : amsSetAside) {
        if (owed == null || rc.lessThanOrEqual(cluster, amsHeld, amShare)) break;
        Resource held = amsHeld;
        if (take(q, c.containerId(), c.appId(), c.container().nodeId(), c.container().resource(),
            Victim.Kind.AM_CONTAINER, "an AM container, taken once the leaf's other containers did not suffice:"
                + " the AM containers set aside hold " + t(held) + ", above maximum-am-resource-percent "
                + spec.maximumAmResourcePercent() + " of its guarantee = " + t(amShare))) {
          amsHeld = amsHeld.minus(c.container().resource());
        }
      }
      leftToObtain.put(q.path(), owed == null ? Resource.NONE : owed);
    }

    /**
     * Hadoop's {@code tryPreemptContainerAndDeductResToObtain}: a resource type owed exactly 0 is
     * taken as owing -1, so that a container lessening only other types still counts.
     */
    private boolean take(QueueAssignment q, String id, String appId, String nodeId, Resource r, Victim.Kind kind,
        String why) {
      if (chosen.contains(id) || owed == null) return false;
      owed = new Resource(owed.memory() == 0 ? -1 : owed.memory(), owed.vCores() == 0 ? -1 : owed.vCores());
      if (!Fixpoint.anyAboveZero(rc, owed) || !rc.fitsIn(r, allowance)) return false;
      Resource after = owed.minus(r);
      boolean lessens = rc.lessThan(cluster, ResourceMath.componentwiseMax(after, Resource.NONE),
          ResourceMath.componentwiseMax(owed, Resource.NONE));
      if (!lessens) return false;
      victims.add(new Victim(id, appId, q.path(), nodeId, r, kind, owed, allowance,
          reason(q, r, kind, why)));
      chosen.add(id);
      allowance = allowance.minus(r);
      owed = rc.lessThanOrEqual(cluster, after, Resource.NONE) ? null : after;
      return true;
    }

    private String reason(QueueAssignment q, Resource r, Victim.Kind kind, String why) {
      StringBuilder b = new StringBuilder(400).append(kind == Victim.Kind.RESERVATION ? "reservation of " : "")
          .append(t(r)).append(" from ").append(q.path()).append(", guaranteed ").append(t(q.guaranteed()))
          .append(", using ").append(t(q.used())).append(" for an ideal assignment of ").append(t(q.idealAssignment()))
          .append(", which gives back ").append(t(q.toBePreempted())).append(", ").append(t(q.toObtain()))
          .append(" of it this round; ").append(t(owed)).append(" left to obtain before this one, ")
          .append(t(allowance)).append(" of the round's allowance of ").append(t(allowanceAtStart)).append(" left; ")
          .append(why);
      if (!gaining.isEmpty()) {
        b.append("; freed for");
        for (String g : gaining) {
          QueueAssignment to = ideal.queue(g);
          b.append(' ').append(g).append(" (using ").append(t(to.used())).append(", ideal assignment ")
              .append(t(to.idealAssignment())).append(')');
        }
      }
      return b.toString();
    }

    private String t(Resource r) {
      return Amounts.text(rc, r);
    }
  }
}
