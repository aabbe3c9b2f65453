package dev.bobbin.core.scheduler;

import dev.bobbin.core.policy.fair.FairShares;
import dev.bobbin.core.policy.fair.QueueSpec;
import dev.bobbin.protocol.CborSerializable;
import dev.bobbin.protocol.Resource;
import java.util.Map;

/** The Fair policy's latest computation, for the scheduler REST view. */
public record FairView(QueueSpec root, FairShares shares, Resource cluster, Map<String, LeafApps> leaves)
    implements CborSerializable {

  /** Per leaf queue path: running and pending applications, AM usage, live and wanted containers. */
  public record LeafApps(int active, int pending, Resource amUsed, int containers, int pendingContainers)
      implements CborSerializable {
    public static final LeafApps NONE = new LeafApps(0, 0, Resource.NONE, 0, 0);
  }
}
