package dev.bobbin.core.policy;

import dev.bobbin.config.QueuePath;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * FIFO within each queue, queues served in turn; a queue may be named with or without its root. Each pass walks the nodes; on a node it offers
 * the next container to the queues in rotation, and within a queue to the first application (by
 * priority, then submission) whose highest-priority ask fits. The AM ask of an application comes
 * before its other asks, whatever their priority, as long as the AMs placed stay within the AM
 * headroom (YARN's maximum-am-resource-percent): AMs that fill a cluster wait forever for workers.
 *
 * <p>Locality is counted as YARN counts it ({@link LocalityRequest}, {@link Asks#afterPlacement}):
 * a container goes on a host the request names, else in a rack it names, else anywhere, and never
 * past a level whose relaxLocality is false. There is no delay scheduling and no reservation, as in
 * Hadoop's FifoScheduler; unlike that scheduler, which places anywhere whatever the flags say,
 * relaxLocality is honoured.
 */
public final class FifoPolicy implements SchedulingPolicy {
  private static final Comparator<AppView> FIFO =
      Comparator.comparingInt(AppView::priority).reversed()
          .thenComparingLong(AppView::submitTime)
          .thenComparing(AppView::appId);

  @Override
  public AllocationPlan assign(List<String> queues, List<NodeView> nodes, List<AppView> apps, Resource amHeadroom,
      int limit) {
    Map<String, List<PendingApp>> byQueue = new LinkedHashMap<>();
    queues.forEach(q -> byQueue.put(QueuePath.of(q).full(), new ArrayList<>()));
    apps.stream().sorted(FIFO).forEach(a -> {
      List<PendingApp> list = byQueue.get(QueuePath.of(a.queue()).full());
      if (list != null) list.add(new PendingApp(a));
    });
    List<String> queueOrder = new ArrayList<>(byQueue.keySet());
    List<Assignment> out = new ArrayList<>();
    int turn = 0;
    Resource amLeft = amHeadroom;
    Resource smallest = Asks.smallestAsked(apps);
    if (smallest == null) return new AllocationPlan(out);
    for (NodeView original : nodes) {
      NodeView node = original;
      boolean placed = true;
      while (placed && out.size() < limit && node.free().fits(smallest)) {
        placed = false;
        for (int i = 0; i < queueOrder.size() && !placed; i++) {
          String queue = queueOrder.get((turn + i) % queueOrder.size());
          for (PendingApp app : byQueue.get(queue)) {
            Assignment a = app.placeOn(node, amLeft);
            if (a != null) {
              out.add(a);
              if (a.ask().am()) amLeft = amLeft.minus(a.capability());
              node = node.allocate(a.capability());
              turn = (turn + i + 1) % queueOrder.size();
              placed = true;
              break;
            }
          }
        }
      }
    }
    return new AllocationPlan(out);
  }

  /** An application's remaining asks during one pass; the views themselves stay untouched. */
  private static final class PendingApp {
    private final AppView view;
    private List<Ask> remaining;
    private List<LocalityRequest> requests;

    PendingApp(AppView view) {
      this.view = view;
      this.remaining = view.asks();
      this.requests = LocalityRequest.of(remaining);
    }

    Assignment placeOn(NodeView node, Resource amLeft) {
      for (LocalityRequest request : requests) {
        if (!request.mayUse(node) || !node.free().fits(request.capability())) continue;
        if (request.am() && !amLeft.fits(request.capability())) continue;
        Ask ask = request.placement(node, Locality.OFF_SWITCH);
        if (ask == null) continue;
        remaining = Asks.afterPlacement(remaining, ask, node.host(), node.nodeId(), node.rack());
        requests = LocalityRequest.of(remaining);
        Locality level = Asks.levelOf(ask, node.host(), node.nodeId(), node.rack());
        return new Assignment(
            view.appId(), view.attemptId(), node.nodeId(), ask,
            "fifo: first fit in queue " + view.queue() + " for priority " + ask.priority()
                + " on " + node.nodeId() + ", " + level.label() + " (free " + node.free() + ")");
      }
      return null;
    }
  }
}
