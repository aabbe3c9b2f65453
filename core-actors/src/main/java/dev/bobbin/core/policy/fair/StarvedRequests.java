package dev.bobbin.core.policy.fair;

import static dev.bobbin.core.policy.fair.StarvationMath.isNone;
import static dev.bobbin.core.policy.fair.StarvationMath.shortfall;

import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.NodeView;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An application's starvation in whole containers of its outstanding requests, as Hadoop's
 * {@code FSAppAttempt.getStarvedResourceRequests} counts it: requests are taken in order while some
 * starvation is left; each pays for {@code floor(starvation / size)} of its containers (memory only,
 * in floats, as Hadoop's default calculator divides), at most as many as it asks for, and what they
 * cost is taken off. A request too big for what is left is skipped, so 819 MB of starvation against
 * 2 GB requests is none.
 *
 * <p>Each priority and container size is counted at one locality level only, the first met (Hadoop's
 * {@code VisitedResourceRequestTracker}): a host request hides the requests for its rack and for
 * {@code *}; a rack request those for its hosts and for {@code *}; {@code *} every other one.
 * Hadoop meets an application's requests in the iteration order of two concurrent hash maps (request
 * keys, then resource names), an accident of hashing. Bobbin meets them in the order it schedules
 * them (the AM request, then by priority and allocation request id) and, within one, hosts before
 * racks before {@code *}, the order Hadoop's own tests of preemption for host requests rely on.
 */
final class StarvedRequests {
  private StarvedRequests() {}

  static List<Ask> of(Resource starvation, List<Ask> asks, List<NodeView> nodes) {
    List<Ask> ordered = new ArrayList<>(asks);
    ordered.sort(Comparator.comparing((Ask a) -> !a.am())
        .thenComparingInt(Ask::priority)
        .thenComparingLong(Ask::allocationRequestId)
        .thenComparingInt(a -> level(a.resourceName(), nodes))
        .thenComparing(Ask::resourceName));
    Map<List<Object>, Visits> visits = new HashMap<>();
    Resource left = starvation;
    List<Ask> out = new ArrayList<>();
    for (Ask ask : ordered) {
      if (isNone(left)) break;
      Visits v = visits.computeIfAbsent(List.of(ask.priority(), ask.capability()), k -> new Visits());
      if (!v.visit(ask.resourceName(), nodes)) continue;
      int fit = StarvationMath.containersIn(left, ask.capability());
      if (fit == 0) continue;
      Ask taken = fit < ask.count() ? ask.withCount(fit) : ask;
      out.add(taken);
      left = shortfall(left, ask.capability().times(taken.count()));
    }
    return out;
  }

  /** The nodes a request names, in the order given: all for {@code *}, a host's or node's own, or a rack's. */
  static List<NodeView> nodesFor(String resourceName, List<NodeView> nodes) {
    if (Ask.ANY.equals(resourceName)) return nodes;
    List<NodeView> named = byHost(resourceName, nodes);
    if (!named.isEmpty()) return named;
    return nodes.stream().filter(n -> n.rack().equals(resourceName)).toList();
  }

  private static List<NodeView> byHost(String name, List<NodeView> nodes) {
    return nodes.stream().filter(n -> n.host().equals(name) || n.nodeId().equals(name)).toList();
  }

  /** Hosts 0, racks (or names no node has) 1, {@code *} 2. */
  private static int level(String resourceName, List<NodeView> nodes) {
    if (Ask.ANY.equals(resourceName)) return 2;
    return byHost(resourceName, nodes).isEmpty() ? 1 : 0;
  }

  /** Which locality levels of one priority and size have been met. */
  private static final class Visits {
    private final Set<String> racksWithHostsVisited = new HashSet<>();
    private final Set<String> racksVisited = new HashSet<>();
    private boolean anyVisited;

    boolean visit(String resourceName, List<NodeView> nodes) {
      if (Ask.ANY.equals(resourceName)) {
        if (racksVisited.isEmpty() && racksWithHostsVisited.isEmpty()) anyVisited = true;
        return anyVisited;
      }
      List<NodeView> host = byHost(resourceName, nodes);
      if (!host.isEmpty()) {
        if (anyVisited || racksVisited.contains(host.get(0).rack())) return false;
        racksWithHostsVisited.add(host.get(0).rack());
        return true;
      }
      if (nodesFor(resourceName, nodes).isEmpty()) return false;
      if (anyVisited || racksWithHostsVisited.contains(resourceName)) return false;
      racksVisited.add(resourceName);
      return true;
    }
  }
}
