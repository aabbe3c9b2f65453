package dev.bobbin.core.policy;

import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The asks of one {@link RequestKey}, at {@code *} and at every host and rack the application named,
 * and where they let a container go, as Hadoop's {@code LocalityAppPlacementAllocator} and the Fair
 * and Capacity schedulers read them.
 *
 * <p>The {@code *} ask holds how many containers are still wanted; with none left nothing is placed,
 * whatever the host and rack asks say. {@code relaxLocality} says whether a container may be placed
 * at that ask's level: false on {@code *} keeps containers on the named hosts and racks, false on a
 * rack keeps them on the named hosts of that rack. A host's own flag is not read, as in Hadoop.
 *
 * <p>One difference: Hadoop places a container on a named host only while the host's rack is asked
 * for too (its AMRMClient always adds the rack). Bobbin's AM library names no racks, so a host ask
 * whose rack is not asked for stands for its rack as well.
 */
public final class LocalityRequest {
  /** Bobbin's order of an application's requests: its AM first, then by priority and allocation request id. */
  private static final Comparator<LocalityRequest> ORDER = Comparator
      .comparing((LocalityRequest r) -> !r.key.am())
      .thenComparingInt(r -> r.key.priority())
      .thenComparingLong(r -> r.key.allocationRequestId());

  private final RequestKey key;
  private final Ask any;
  /** Host, node id and rack asks by name; only asks still wanting containers. */
  private final Map<String, Ask> named;

  private LocalityRequest(RequestKey key, Ask any, Map<String, Ask> named) {
    this.key = key;
    this.any = any;
    this.named = named;
  }

  /** An application's asks as requests, in the order it schedules them; asks for no container are left out. */
  public static List<LocalityRequest> of(Collection<Ask> asks) {
    Map<RequestKey, List<Ask>> byKey = new LinkedHashMap<>();
    for (Ask a : asks) {
      if (a.count() > 0) byKey.computeIfAbsent(RequestKey.of(a), k -> new ArrayList<>()).add(a);
    }
    List<LocalityRequest> out = new ArrayList<>(byKey.size());
    byKey.forEach((key, list) -> {
      Ask any = null;
      Map<String, Ask> named = new LinkedHashMap<>();
      for (Ask a : list) {
        if (a.isAny()) any = a;
        else named.put(a.resourceName(), a);
      }
      out.add(new LocalityRequest(key, any, named));
    });
    out.sort(ORDER);
    return out;
  }

  public RequestKey key() {
    return key;
  }

  public Resource capability() {
    return key.capability();
  }

  public boolean am() {
    return key.am();
  }

  /** How many containers are still wanted: the {@code *} ask's count. */
  public int pending() {
    return any == null ? 0 : any.count();
  }

  /** The {@code *} ask, or null when none is left. */
  public Ask any() {
    return any;
  }

  /** The ask at this host, node id or rack name, or null. */
  public Ask at(String name) {
    return named.get(name);
  }

  /** How many names it asks at, {@code *} included: Hadoop's unique location asks. */
  public int locations() {
    return named.size() + (any == null ? 0 : 1);
  }

  /**
   * Whether it has a container the node could take once free, Hadoop's {@code hasContainerForNode}
   * without the queue's limits: something is still wanted; a strict {@code *} needs the node's rack
   * or host asked for; a strict rack needs the node's host asked for; and the container fits in the
   * node's whole capacity.
   */
  public boolean mayUse(NodeView node) {
    if (any == null) return false;
    Ask host = hostAsk(node);
    Ask rack = named.get(node.rack());
    if (!any.relaxLocality() && rack == null && host == null) return false;
    if (rack != null && !rack.relaxLocality() && host == null) return false;
    return node.capacity().fits(key.capability());
  }

  /**
   * The ask a container on this node is charged to when placements up to {@code allowed} are
   * permitted, or null if none may be placed here: the host's ask, always (locality cannot be better);
   * else the rack's ask, unless the rack is strict or {@code allowed} is only node-local; else
   * {@code *}, unless it is strict or other names are asked for and {@code allowed} is not off-switch.
   * This is the Fair scheduler's rule, and the FIFO policy's with {@code allowed} off-switch.
   */
  public Ask placement(NodeView node, Locality allowed) {
    return placement(node, level -> level == Locality.OFF_SWITCH
        ? locations() <= 1 || allowed == Locality.OFF_SWITCH
        : allowed.admits(level));
  }

  /**
   * The same walk with the delay decided by the caller: {@code delayAllows} is asked whether a
   * rack-local, then an off-switch placement may be made now (the Capacity scheduler's delay counts
   * missed opportunities its own way). Node-local placements are never delayed.
   */
  public Ask placement(NodeView node, Predicate<Locality> delayAllows) {
    if (any == null) return null;
    Ask host = hostAsk(node);
    if (host != null) return host;
    Ask rack = named.get(node.rack());
    if (rack != null && !rack.relaxLocality()) return null;
    if (rack != null && delayAllows.test(Locality.RACK_LOCAL)) return rack;
    if (!any.relaxLocality()) return null;
    return delayAllows.test(Locality.OFF_SWITCH) ? any : null;
  }

  /** An ask naming the node's host, or failing that its node id. */
  private Ask hostAsk(NodeView node) {
    Ask byHost = named.get(node.host());
    return byHost != null ? byHost : named.get(node.nodeId());
  }
}
