package dev.bobbin.core.policy.capacity.preemption;

import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.ContainerSnapshot;
import dev.bobbin.core.policy.capacity.CapacityTree;
import dev.bobbin.protocol.Ids;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Applications with containers of 1 GB and 1 vcore, as a round reads them. Immutable: each change
 * returns a new workload. Application {@code n} is {@code application_1_000n}; its first container
 * is its AM when asked for.
 */
final class Workload {
  static final Resource GB = new Resource(1024, 1);

  private record App(String appId, String queue, int priority, long submitTime, int pendingGb, List<CandidateContainer> live,
      long nextSequence) {}

  private final Map<String, App> apps;

  private Workload(Map<String, App> apps) {
    this.apps = apps;
  }

  static Workload empty() {
    return new Workload(new LinkedHashMap<>());
  }

  static String appId(int n) {
    return Ids.applicationId(1, n);
  }

  /** Application {@code n} in {@code queue} with {@code containers} containers, the first its AM if {@code am}. */
  Workload app(int n, String queue, int containers, boolean am, int pendingGb) {
    return app(n, queue, 0, containers, am, pendingGb);
  }

  Workload app(int n, String queue, int priority, int containers, boolean am, int pendingGb) {
    Map<String, App> next = new LinkedHashMap<>(apps);
    App app = new App(appId(n), queue, priority, n, pendingGb, List.of(), 1);
    next.put(app.appId, add(app, containers, am));
    return new Workload(next);
  }

  /** Application {@code n} is given {@code containers} more, out of what it asks for. */
  Workload grant(int n, int containers) {
    Map<String, App> next = new LinkedHashMap<>(apps);
    App app = apps.get(appId(n));
    App more = add(app, containers, false);
    next.put(app.appId, new App(app.appId, app.queue, app.priority, app.submitTime,
        Math.max(0, app.pendingGb - containers), more.live, more.nextSequence));
    return new Workload(next);
  }

  /** Application {@code n} asks for {@code gb} more (or, with a negative number, less). */
  Workload ask(int n, int gb) {
    Map<String, App> next = new LinkedHashMap<>(apps);
    App app = apps.get(appId(n));
    next.put(app.appId, new App(app.appId, app.queue, app.priority, app.submitTime, Math.max(0, app.pendingGb + gb),
        app.live, app.nextSequence));
    return new Workload(next);
  }

  /** The containers with these ids have ended. */
  Workload without(Collection<String> containerIds) {
    Set<String> gone = new HashSet<>(containerIds);
    Map<String, App> next = new LinkedHashMap<>();
    apps.forEach((id, app) -> next.put(id, new App(app.appId, app.queue, app.priority, app.submitTime, app.pendingGb,
        app.live.stream().filter(c -> !gone.contains(c.containerId())).toList(), app.nextSequence)));
    return new Workload(next);
  }

  int containers(int n) {
    return apps.get(appId(n)).live.size();
  }

  List<AppSnapshot> snapshots() {
    List<AppSnapshot> out = new ArrayList<>();
    for (App a : apps.values()) {
      Resource used = Resource.NONE;
      Resource am = Resource.NONE;
      for (CandidateContainer c : a.live) {
        used = used.plus(c.container().resource());
        if (c.container().am()) am = am.plus(c.container().resource());
      }
      Resource pending = GB.times(a.pendingGb);
      out.add(new AppSnapshot(a.appId, Ids.attemptId(a.appId, 1), a.queue, a.priority, a.submitTime, used, am, pending,
          a.pendingGb > 0 ? GB : Resource.NONE));
    }
    return out;
  }

  List<CandidateContainer> containers() {
    List<CandidateContainer> out = new ArrayList<>();
    for (App a : apps.values()) out.addAll(a.live);
    return out;
  }

  PreemptionRound.Input input(CapacityTree tree) {
    return PreemptionRound.Input.of(tree, snapshots(), containers());
  }

  private static App add(App app, int containers, boolean firstIsAm) {
    List<CandidateContainer> live = new ArrayList<>(app.live);
    long sequence = app.nextSequence;
    String attempt = Ids.attemptId(app.appId, 1);
    for (int i = 0; i < containers; i++, sequence++) {
      boolean am = firstIsAm && i == 0;
      String id = Ids.containerId(attempt, 0, sequence);
      live.add(new CandidateContainer(new ContainerSnapshot(id, app.appId, "host" + (sequence % 4) + ":8041", GB, am,
          sequence), am ? 0 : 1, 0));
    }
    return new App(app.appId, app.queue, app.priority, app.submitTime, app.pendingGb, List.copyOf(live), sequence);
  }
}
