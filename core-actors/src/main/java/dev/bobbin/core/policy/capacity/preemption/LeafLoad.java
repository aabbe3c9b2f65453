package dev.bobbin.core.policy.capacity.preemption;

import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.capacity.CapacityTree;
import dev.bobbin.core.policy.capacity.ResourceMath;
import dev.bobbin.protocol.Resource;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a leaf queue holds and asks for, as preemption reads it.
 *
 * @param used what its applications hold ({@link AppSnapshot#usage()} added up)
 * @param reserved what their node reservations hold
 * @param pending what they still ask for, each user's part at most its headroom
 * @param pendingBeyondReserved the same, with each application's reservations first taken off its
 *     asks (a reservation already stands for that demand on a node)
 */
public record LeafLoad(Resource used, Resource reserved, Resource pending, Resource pendingBeyondReserved) {
  public static final LeafLoad NONE = new LeafLoad(Resource.NONE, Resource.NONE, Resource.NONE, Resource.NONE);

  /**
   * Every leaf's load; a leaf without applications has {@link #NONE}.
   *
   * @param users the user of each application, read only where {@code headroom} limits a leaf
   * @throws IllegalArgumentException for an application in a queue that is not a leaf of the tree
   */
  public static Map<String, LeafLoad> of(CapacityTree tree, List<AppSnapshot> apps,
      List<ReservedContainer> reservations, Map<String, String> users, UserHeadroom headroom) {
    Map<String, Resource> reservedByApp = new HashMap<>();
    for (ReservedContainer r : reservations) reservedByApp.merge(r.appId(), r.resource(), Resource::plus);

    Map<String, LeafLoad> out = new LinkedHashMap<>();
    for (var q : tree.queues()) {
      if (tree.spec(q.path()).isLeaf()) out.put(q.path(), NONE);
    }
    // Hadoop counts the two figures in two passes, each with the users' whole headroom.
    Map<String, Resource> roomForPending = new HashMap<>();
    Map<String, Resource> roomBeyondReserved = new HashMap<>();
    for (AppSnapshot app : apps) {
      LeafLoad load = out.get(app.queuePath());
      if (load == null) {
        throw new IllegalArgumentException("application " + app.appId() + " is in " + app.queuePath()
            + ", which is not a leaf queue");
      }
      Resource reserved = reservedByApp.getOrDefault(app.appId(), Resource.NONE);
      Resource asked = ResourceMath.componentwiseMax(app.pending(), Resource.NONE);
      String user = users.get(app.appId());
      Resource pending = withinHeadroom(roomForPending, headroom, app.queuePath(), user, asked);
      Resource beyond = withinHeadroom(roomBeyondReserved, headroom, app.queuePath(), user,
          ResourceMath.subtractNonNegative(asked, reserved));
      out.put(app.queuePath(), new LeafLoad(load.used.plus(app.usage()), load.reserved.plus(reserved),
          load.pending.plus(pending), load.pendingBeyondReserved.plus(beyond)));
    }
    return out;
  }

  /** {@code asked}, at most what is left of the user's headroom, which goes down by it. */
  private static Resource withinHeadroom(Map<String, Resource> left, UserHeadroom headroom, String leaf, String user,
      Resource asked) {
    if (user == null) return asked;
    String key = leaf + '\n' + user;
    Resource room = left.containsKey(key) ? left.get(key) : headroom.of(leaf, user);
    if (room == null) {
      left.put(key, null);
      return asked;
    }
    Resource taken = ResourceMath.componentwiseMin(room, asked);
    left.put(key, room.minus(taken));
    return taken;
  }
}
