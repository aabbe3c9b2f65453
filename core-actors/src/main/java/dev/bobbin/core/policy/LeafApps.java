package dev.bobbin.core.policy;

import dev.bobbin.protocol.CborSerializable;
import dev.bobbin.protocol.Resource;

/**
 * A leaf queue's applications as the scheduler view reports them: those with a live container are
 * active, the others wait for their AM.
 */
public record LeafApps(int active, int pending, Resource amUsed, int containers, int pendingContainers)
    implements CborSerializable {
  public static final LeafApps NONE = new LeafApps(0, 0, Resource.NONE, 0, 0);

  public LeafApps plus(LeafApps o) {
    return new LeafApps(active + o.active, pending + o.pending, amUsed.plus(o.amUsed), containers + o.containers,
        pendingContainers + o.pendingContainers);
  }
}
