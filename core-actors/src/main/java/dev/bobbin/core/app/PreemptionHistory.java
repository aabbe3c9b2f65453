package dev.bobbin.core.app;

import dev.bobbin.protocol.CborSerializable;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.List;

/** Preemptions an application suffered and caused: totals, and the most recent records. */
public record PreemptionHistory(
    int amContainersPreempted,
    int nonAmContainersPreempted,
    Resource preemptedResource,
    List<PreemptionRecord> suffered,
    List<PreemptionRecord> caused) implements CborSerializable {
  static final int KEEP = 20;
  public static final PreemptionHistory NONE = new PreemptionHistory(0, 0, Resource.NONE, List.of(), List.of());

  public PreemptionHistory {
    suffered = List.copyOf(suffered);
    caused = List.copyOf(caused);
  }

  PreemptionHistory suffer(PreemptionRecord r) {
    return new PreemptionHistory(amContainersPreempted + (r.amContainer() ? 1 : 0),
        nonAmContainersPreempted + (r.amContainer() ? 0 : 1), preemptedResource.plus(r.resource()),
        recent(suffered, r), caused);
  }

  /** Whether the record is among the recent ones suffered, so that a cancellation can take it back. */
  boolean hasSuffered(PreemptionRecord r) {
    return suffered.contains(r);
  }

  /** A recorded preemption the policy cancelled before its kill: it no longer counts. */
  PreemptionHistory cancel(PreemptionRecord r) {
    if (!suffered.contains(r)) return this;
    List<PreemptionRecord> left = new ArrayList<>(suffered);
    left.remove(r);
    return new PreemptionHistory(amContainersPreempted - (r.amContainer() ? 1 : 0),
        nonAmContainersPreempted - (r.amContainer() ? 0 : 1), preemptedResource.minus(r.resource()), left, caused);
  }

  PreemptionHistory cause(PreemptionRecord r) {
    return new PreemptionHistory(amContainersPreempted, nonAmContainersPreempted, preemptedResource, suffered,
        recent(caused, r));
  }

  private static List<PreemptionRecord> recent(List<PreemptionRecord> list, PreemptionRecord r) {
    List<PreemptionRecord> out = new ArrayList<>(list);
    out.add(r);
    return out.size() > KEEP ? out.subList(out.size() - KEEP, out.size()) : out;
  }
}
