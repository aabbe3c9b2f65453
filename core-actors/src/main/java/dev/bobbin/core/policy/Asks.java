package dev.bobbin.core.policy;

import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.List;

/** How one placement reduces an application's asks; shared by the policy and the scheduler. */
public final class Asks {
  private Asks() {}

  /**
   * The asks left after placing one container for {@code placed} on the given node: the placed
   * ask, the ANY ask of the same key and the host or rack asks that the node satisfies each lose
   * one, as YARN decrements a node-local allocation at every locality level.
   */
  public static List<Ask> afterPlacement(List<Ask> asks, Ask placed, String host, String nodeId, String rack) {
    List<Ask> out = new ArrayList<>(asks.size());
    for (Ask a : asks) {
      boolean hit = sameKey(a, placed) && (a.equals(placed) || a.isAny() || a.allows(host, nodeId, rack));
      int count = hit ? Math.max(0, a.count() - 1) : a.count();
      if (count > 0) out.add(count == a.count() ? a : a.withCount(count));
    }
    return out;
  }

  /** A relaxed host or rack ask is served through its ANY ask, which holds the total. */
  public static boolean servedThroughAny(List<Ask> asks, Ask ask) {
    return !ask.isAny() && ask.relaxLocality()
        && asks.stream().anyMatch(o -> o.isAny() && sameKey(o, ask) && o.count() > 0);
  }

  public static boolean sameKey(Ask a, Ask b) {
    return a.priority() == b.priority() && a.capability().equals(b.capability())
        && a.allocationRequestId() == b.allocationRequestId() && a.am() == b.am();
  }

  /**
   * The least of every asked-for size, resource by resource, or null when nothing is asked: a node
   * whose free space does not hold it can take no container of these asks, so a pass skips it
   * without offering it to every queue and application.
   */
  public static Resource smallestAsked(List<AppView> apps) {
    long memory = Long.MAX_VALUE;
    int vCores = Integer.MAX_VALUE;
    boolean any = false;
    for (AppView app : apps) {
      for (Ask a : app.asks()) {
        if (a.count() <= 0) continue;
        any = true;
        memory = Math.min(memory, a.capability().memory());
        vCores = Math.min(vCores, a.capability().vCores());
      }
    }
    return any ? new Resource(memory, vCores) : null;
  }
}
