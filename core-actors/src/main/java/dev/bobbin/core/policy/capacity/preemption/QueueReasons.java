package dev.bobbin.core.policy.capacity.preemption;

import dev.bobbin.core.policy.capacity.ResourceMath;
import dev.bobbin.protocol.Resource;

/** A queue's numbers of a round, in words, for logs and receipts. */
final class QueueReasons {
  private QueueReasons() {}

  static String describe(ResourceMath rc, Resource cluster, WorkingQueue q, Resource deadZone,
      ProportionalPreemptionSettings s) {
    StringBuilder b = new StringBuilder(320).append(q.path).append(": guaranteed ").append(t(rc, q.guaranteed))
        .append(", maximum ").append(t(rc, q.maximum)).append("; uses ").append(t(rc, q.used)).append(", asks ").append(t(rc, q.pending));
    if (!q.reserved.equals(Resource.NONE)) {
      b.append(" (").append(t(rc, q.pendingBeyondReserved)).append(" beyond its reservations of ").append(t(rc, q.reserved))
          .append(')');
    }
    b.append("; ideal assignment ").append(t(rc, q.idealAssigned));
    if (!q.path.contains(".")) {
      b.append(" (the whole cluster)");
    } else {
      b.append(" (starts at ").append(t(rc, q.initialAssignment));
      if (!q.untouchableExtra.equals(Resource.NONE)) {
        b.append(", with ").append(t(rc, q.untouchableExtra)).append(" above its guarantee that preemption may not take");
      }
      b.append(", takes ").append(t(rc, q.surplusAccepted)).append(" of the ").append(t(rc, q.levelTotal))
          .append(" its level shares; ").append(why(rc, q)).append(')');
    }
    b.append("; gives back ").append(t(rc, q.toBePreempted));
    if (q.scalingFactor < 1f) {
      b.append(" (scaled by ").append(q.scalingFactor).append(": its level would give back ")
          .append(t(rc, q.levelPreemptionNeeded)).append(", more than a round's allowance)");
    }
    b.append("; this round: ");
    if (!q.leaf) return b.append("taken through its leaves").toString();
    if (q.preemptionDisabled) return b.append("nothing, preemption is disabled for it").toString();
    if (!rc.greaterThan(cluster, q.used, deadZone)) {
      return b.append("nothing, its usage is within the dead zone of its guarantee times 1 + max_ignored_over_capacity ")
          .append(s.maxIgnoredOverCapacity()).append(" = ").append(t(rc, deadZone)).toString();
    }
    if (q.toObtain.equals(q.toBePreempted)) return b.append(t(rc, q.toObtain)).toString();
    return b.append(t(rc, q.toObtain)).append(" (natural_termination_factor ").append(s.naturalTerminationFactor())
        .append(" of it, rounded up)").toString();
  }

  private static String t(ResourceMath rc, Resource r) {
    return Amounts.text(rc, r);
  }

  private static String why(ResourceMath rc, WorkingQueue q) {
    Resource total = q.levelTotal;
    if (!rc.lessThan(total, q.idealAssigned, q.used.plus(q.pending))) return "its demand is met";
    if (!rc.lessThan(total, q.idealAssigned, q.maximum)) return "held at its maximum";
    if (q.leaf && !rc.lessThan(total, q.idealAssigned, rc.max(total, q.used, q.guaranteed))) {
      return "a leaf takes the surplus only up to the larger of its usage and its guarantee";
    }
    return "nothing more was left to share";
  }
}
