package dev.bobbin.core.scheduler;

import java.util.Collection;
import java.util.TreeMap;

/**
 * The applications with outstanding asks, in the order they joined the scheduler. A scheduling
 * pass visits these instead of every application: with thousands of running applications whose
 * asks are all placed, a pass per wave over all of them cost more than the placements.
 */
final class Waiting {
  private final TreeMap<Long, SchedApp> apps = new TreeMap<>();
  private long nextOrder;

  /** The position of an application that joins now. */
  long enrol() {
    return nextOrder++;
  }

  /** Called by an application whenever its asks change. */
  void update(SchedApp app) {
    if (app.hasDemand()) apps.put(app.order, app);
    else apps.remove(app.order);
  }

  void remove(SchedApp app) {
    apps.remove(app.order);
  }

  Collection<SchedApp> apps() {
    return apps.values();
  }
}
