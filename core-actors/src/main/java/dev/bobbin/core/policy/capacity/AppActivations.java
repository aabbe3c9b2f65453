package dev.bobbin.core.policy.capacity;

import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.AppView;
import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.ClusterView;
import dev.bobbin.core.policy.capacity.ApplicationLimits.Activation;
import dev.bobbin.core.policy.capacity.ApplicationLimits.ActivationPlan;
import dev.bobbin.core.policy.capacity.ApplicationLimits.ActiveApp;
import dev.bobbin.core.policy.capacity.ApplicationLimits.PendingApp;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which applications of the capacity policy's leaves are activated (may have their AM placed and
 * take containers) and which wait for the AM resource limit, with Hadoop's diagnostics for those
 * that wait. An application stays activated until it ends, as in Hadoop; its AM resource counts
 * against its leaf's and its user's AM limits from activation on. The decisions are
 * {@link ApplicationLimits#activate}'s; this keeps their outcome between passes.
 *
 * <p>An application first seen without an AM ask (its AM was placed before a scheduler took over)
 * is activated at once. An application seen for the first time is activated as Hadoop does on its
 * submission: its user joins the user AM limit's count from the next pass on.
 */
final class AppActivations {
  private final Set<String> activated = new HashSet<>();
  /** Applications seen waiting for activation: not newcomers any more. */
  private final Set<String> seen = new HashSet<>();
  private final Map<String, Resource> amResources = new HashMap<>();
  private final Map<String, String> diagnostics = new HashMap<>();
  private final Map<String, ApplicationLimits.AmLimits> limits = new HashMap<>();

  Set<String> activated() {
    return Collections.unmodifiableSet(activated);
  }

  boolean isActivated(String appId) {
    return activated.contains(appId);
  }

  /** Why the application waits, in Hadoop's words; null once activated. */
  String diagnostics(String appId) {
    return diagnostics.get(appId);
  }

  /** The leaf's AM limits as last computed, or null. */
  ApplicationLimits.AmLimits limits(String leaf) {
    return limits.get(leaf);
  }

  /** The AM resource an application counts for: what its AM asked. */
  Resource amResource(AppSnapshot app) {
    Resource r = amResources.get(app.appId());
    return r != null ? r : app.amUsage();
  }

  void forget(String appId) {
    activated.remove(appId);
    seen.remove(appId);
    amResources.remove(appId);
    diagnostics.remove(appId);
  }

  /** Forgets what was computed against queues that may no longer exist. */
  void queuesChanged() {
    limits.clear();
  }

  /** Activates what the AM limits let start, leaf by leaf. */
  void update(CapacityTree tree, ClusterView view, Map<String, Resource> used, Map<String, String> users,
      int maxApplicationPriority) {
    Map<String, AppView> waiting = new HashMap<>();
    for (AppView v : view.waiting()) waiting.put(v.appId(), v);
    Map<String, List<AppSnapshot>> byLeaf = new LinkedHashMap<>();
    for (AppSnapshot a : view.apps()) {
      if (tree.contains(a.queuePath()) && tree.spec(a.queuePath()).isLeaf()) {
        byLeaf.computeIfAbsent(a.queuePath(), k -> new ArrayList<>()).add(a);
      }
    }
    byLeaf.forEach((leaf, apps) -> updateLeaf(tree, leaf, apps, waiting, used, users, maxApplicationPriority));
  }

  private void updateLeaf(CapacityTree tree, String leaf, List<AppSnapshot> apps, Map<String, AppView> waiting,
      Map<String, Resource> used, Map<String, String> users, int maxPriority) {
    List<ActiveApp> active = new ArrayList<>();
    List<PendingApp> waitingBefore = new ArrayList<>();
    List<PendingApp> newcomers = new ArrayList<>();
    for (AppSnapshot a : apps) {
      AppView v = waiting.get(a.appId());
      Ask am = v == null ? null : v.asks().stream().filter(k -> k.am() && k.count() > 0).findFirst().orElse(null);
      if (am != null) amResources.putIfAbsent(a.appId(), am.capability());
      String user = users.get(a.appId());
      if (!activated.contains(a.appId()) && am == null) activated.add(a.appId());
      if (activated.contains(a.appId())) {
        active.add(new ActiveApp(a.appId(), user, amResource(a), v != null && !v.asks().isEmpty()));
        continue;
      }
      PendingApp p = new PendingApp(a.appId(), user,
          AppOrder.effectivePriority(tree.spec(leaf), a.priority(), maxPriority), am.capability());
      (seen.add(a.appId()) ? newcomers : waitingBefore).add(p);
    }
    Resource currentLimit = tree.currentLimit(leaf, used);
    if (waitingBefore.isEmpty() && newcomers.isEmpty()) {
      Set<String> asking = new HashSet<>();
      for (ActiveApp a : active) if (a.asking()) asking.add(a.user());
      limits.put(leaf, ApplicationLimits.amLimits(tree, leaf, currentLimit, asking.size()));
      return;
    }
    // Each newcomer's submission is a pass of its own in Hadoop, over the applications submitted
    // until then; without newcomers, one pass over those that wait.
    List<PendingApp> candidates = new ArrayList<>(waitingBefore);
    if (newcomers.isEmpty()) {
      activate(tree, leaf, currentLimit, active, candidates, null);
    }
    for (PendingApp n : newcomers) {
      candidates.add(n);
      activate(tree, leaf, currentLimit, active, candidates, n.appId());
    }
  }

  /** One activation pass: {@code active} gains and {@code candidates} loses what starts. */
  private void activate(CapacityTree tree, String leaf, Resource currentLimit, List<ActiveApp> active,
      List<PendingApp> candidates, String submitted) {
    ActivationPlan plan = ApplicationLimits.activate(tree, leaf, currentLimit, active, candidates, submitted);
    limits.put(leaf, plan.limits());
    Map<String, PendingApp> byId = new HashMap<>();
    for (PendingApp p : candidates) byId.put(p.appId(), p);
    for (Activation a : plan.activations()) {
      if (a.activated()) {
        PendingApp p = byId.get(a.appId());
        activated.add(a.appId());
        diagnostics.remove(a.appId());
        active.add(new ActiveApp(p.appId(), p.user(), p.amResource(), true));
        candidates.remove(p);
      } else {
        diagnostics.put(a.appId(), a.diagnostics());
      }
    }
  }
}
