package dev.bobbin.node.container;

import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The containers a node knows: live ones, completed ones the RM has not acknowledged yet (reported
 * until it does), and a bounded history of finished ones for the REST API and duplicate checks.
 * Owned by the node actor and touched only from it; records are immutable.
 */
public final class ContainerTable {
  private final int historyLimit;
  private final Map<String, ContainerRecord> live = new LinkedHashMap<>();
  private final Map<String, ContainerRecord> history = new LinkedHashMap<>();
  private final Map<String, ContainerStatus> unacknowledged = new LinkedHashMap<>();
  private long launchedTotal;
  private long completedTotal;

  public ContainerTable(int historyLimit) {
    this.historyLimit = historyLimit;
  }

  public boolean knows(String containerId) {
    return live.containsKey(containerId) || history.containsKey(containerId)
        || unacknowledged.containsKey(containerId);
  }

  public Optional<ContainerRecord> find(String containerId) {
    ContainerRecord r = live.get(containerId);
    return Optional.ofNullable(r != null ? r : history.get(containerId));
  }

  public Optional<ContainerRecord> findLive(String containerId) {
    return Optional.ofNullable(live.get(containerId));
  }

  public void add(ContainerRecord created) {
    live.put(created.containerId(), created);
  }

  /**
   * Puts back a container an earlier NodeManager on this node recorded: live, or finished and
   * reported until the RM acknowledges it.
   */
  public void restore(ContainerRecord r) {
    if (!r.isFinished()) {
      live.put(r.containerId(), r);
      return;
    }
    history.put(r.containerId(), r);
    unacknowledged.put(r.containerId(), r.toStatus());
    trimHistory();
  }

  public void markRunning(String containerId) {
    live.computeIfPresent(containerId, (id, r) -> r.running());
    launchedTotal++;
  }

  public void markKilling(String containerId) {
    live.computeIfPresent(containerId, (id, r) -> r.killing());
  }

  /** Moves a live container to the finished ones; returns the final record, if it was live. */
  public Optional<ContainerRecord> finish(String containerId, int exitStatus, String diagnostics, boolean killed, long now) {
    ContainerRecord r = live.remove(containerId);
    if (r == null) return Optional.empty();
    ContainerRecord done = r.finished(exitStatus, diagnostics, killed, now);
    history.put(containerId, done);
    unacknowledged.put(containerId, done.toStatus());
    completedTotal++;
    trimHistory();
    return Optional.of(done);
  }

  /** The RM has recorded these completions: stop reporting them. Live ids are ignored. */
  public void acknowledge(Collection<String> containerIds) {
    containerIds.forEach(unacknowledged::remove);
  }

  /** What a heartbeat or a re-registration reports: every live container and every unacknowledged completion. */
  public List<ContainerStatus> statusesToReport() {
    List<ContainerStatus> out = new ArrayList<>(live.size() + unacknowledged.size());
    live.values().forEach(r -> out.add(r.toStatus()));
    out.addAll(unacknowledged.values());
    return out;
  }

  public List<ContainerRecord> liveContainers() {
    return List.copyOf(live.values());
  }

  public List<String> liveContainersOf(String applicationId) {
    return live.values().stream().filter(r -> r.applicationId().equals(applicationId))
        .map(ContainerRecord::containerId).toList();
  }

  /** Live first, then finished, oldest first. */
  public List<ContainerRecord> allContainers() {
    return Stream.concat(live.values().stream(), history.values().stream()).toList();
  }

  /** The applications it holds containers of, live or finished. */
  public Set<String> applications() {
    Set<String> apps = new TreeSet<>();
    live.values().forEach(r -> apps.add(r.applicationId()));
    history.values().forEach(r -> apps.add(r.applicationId()));
    return apps;
  }

  public Resource allocated() {
    return live.values().stream().map(ContainerRecord::resource).reduce(Resource.NONE, Resource::plus);
  }

  public int liveCount() {
    return live.size();
  }

  public long launchedTotal() {
    return launchedTotal;
  }

  public long completedTotal() {
    return completedTotal;
  }

  private void trimHistory() {
    Iterator<String> oldest = history.keySet().iterator();
    while (history.size() > historyLimit && oldest.hasNext()) {
      oldest.next();
      oldest.remove();
    }
  }
}
