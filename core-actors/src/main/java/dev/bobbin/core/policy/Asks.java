package dev.bobbin.core.policy;

import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.List;

/** How one placement changes an application's asks; shared by the policies and the scheduler. */
public final class Asks {
  private Asks() {}

  /**
   * The level of a placement on the node of this host, node id and rack, read from the ask it was
   * charged to ({@link LocalityRequest#placement}): {@code *} is off-switch, the host or node id
   * node-local, the rack rack-local.
   *
   * @throws IllegalArgumentException when the ask names another place
   */
  public static Locality levelOf(Ask placed, String host, String nodeId, String rack) {
    if (placed.isAny()) return Locality.OFF_SWITCH;
    String name = placed.resourceName();
    if (name.equals(host) || name.equals(nodeId)) return Locality.NODE_LOCAL;
    if (name.equals(rack)) return Locality.RACK_LOCAL;
    throw new IllegalArgumentException("ask for " + name + " placed on " + nodeId + " in " + rack);
  }

  /**
   * The asks left after placing one container charged to {@code placed} on the given node, as
   * Hadoop's {@code AppSchedulingInfo} counts it: node-local takes one from the host's ask, the
   * rack's and {@code *}; rack-local from the rack's and {@code *}; off-switch from {@code *} only.
   * Asks that reach 0 are dropped.
   */
  public static List<Ask> afterPlacement(List<Ask> asks, Ask placed, String host, String nodeId, String rack) {
    List<Ask> out = new ArrayList<>(asks.size());
    for (Ask a : asks) {
      int count = charges(a, placed, host, nodeId, rack) ? a.count() - 1 : a.count();
      if (count > 0) out.add(count == a.count() ? a : a.withCount(count));
    }
    return out;
  }

  /**
   * The asks such a placement takes one from, each with a count of 1: what {@link #restored} gives
   * back when the placement is undone, as Hadoop keeps them on the container to recover the request.
   */
  public static List<Ask> charged(List<Ask> asks, Ask placed, String host, String nodeId, String rack) {
    List<Ask> out = new ArrayList<>();
    for (Ask a : asks) if (charges(a, placed, host, nodeId, rack)) out.add(a.withCount(1));
    return out;
  }

  /** The asks with one container given back to each of {@code charged}, with its own locality flag if it was gone. */
  public static List<Ask> restored(List<Ask> asks, List<Ask> charged) {
    List<Ask> out = new ArrayList<>(asks);
    for (Ask c : charged) {
      int i = indexOf(out, c);
      if (i < 0) out.add(c);
      else out.set(i, out.get(i).withCount(out.get(i).count() + c.count()));
    }
    return out;
  }

  private static int indexOf(List<Ask> asks, Ask like) {
    for (int i = 0; i < asks.size(); i++) {
      Ask a = asks.get(i);
      if (sameKey(a, like) && a.resourceName().equals(like.resourceName())) return i;
    }
    return -1;
  }

  private static boolean charges(Ask a, Ask placed, String host, String nodeId, String rack) {
    if (a.count() <= 0 || !sameKey(a, placed)) return false;
    if (a.isAny()) return true;
    return switch (levelOf(placed, host, nodeId, rack)) {
      case NODE_LOCAL -> a.resourceName().equals(placed.resourceName()) || a.resourceName().equals(rack);
      case RACK_LOCAL -> a.resourceName().equals(rack);
      case OFF_SWITCH -> false;
    };
  }

  public static boolean sameKey(Ask a, Ask b) {
    return RequestKey.of(a).equals(RequestKey.of(b));
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
