package dev.bobbin.node.recovery;

import dev.bobbin.config.NmRecoverySettings;
import dev.bobbin.config.SettingsException;
import dev.bobbin.node.container.ContainerRecord;
import dev.bobbin.node.container.KillReason;
import dev.bobbin.node.container.ProcessIdentity;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the NodeManager writes to its state store as its containers and applications change, so
 * that a restarted NodeManager can take them back; does nothing when recovery is off. Each write
 * is done before the node acts on it where that matters: a container is recorded before it is
 * started, its process before it counts as running. A failed write is logged; only a container
 * that cannot be recorded at all is refused. Used by the node actor only.
 */
public final class StateRecorder {
  private static final Logger log = LoggerFactory.getLogger(StateRecorder.class);

  private final NmRecoverySettings settings;
  /** Null when recovery is off. */
  private final FileStateStore store;
  private final NmState recovered;
  private final Map<String, StoredContainer> containers = new LinkedHashMap<>();
  private final Map<String, StoredApplication> applications = new LinkedHashMap<>();
  private final LocalizedRecords resources;

  private StateRecorder(NmRecoverySettings settings, FileStateStore store, NmState recovered,
      LocalizedRecords resources) {
    this.settings = settings;
    this.store = store;
    this.recovered = recovered;
    this.resources = resources;
    recovered.containers().forEach(c -> containers.put(c.containerId(), c));
    recovered.applications().forEach(a -> applications.put(a.applicationId(), a));
  }

  public static StateRecorder disabled() {
    return new StateRecorder(NmRecoverySettings.DISABLED, null, NmState.EMPTY, LocalizedRecords.disabled());
  }

  /**
   * Opens the store ({@code recovery} under {@code nodeRoot} unless the settings name a directory)
   * and reads what it holds; with recovery off, records nothing.
   *
   * @throws SettingsException naming the directory's setting when the store cannot be used
   */
  public static StateRecorder open(NmRecoverySettings settings, Path nodeRoot) {
    if (!settings.enabled()) return disabled();
    Path dir = settings.dir().orElse(nodeRoot.resolve("recovery")).toAbsolutePath();
    try {
      FileStateStore store = new FileStateStore(dir);
      NmState state = store.load();
      LocalizedRecords resources = LocalizedRecords.open(store);
      log.info("NodeManager state store {}: {} containers, {} applications and {} localized resources recorded by an"
          + " earlier run", dir, state.containers().size(), state.applications().size(), resources.recovered().size());
      return new StateRecorder(settings, store, state, resources);
    } catch (IOException | RuntimeException e) {
      throw new SettingsException("bobbin.nm.recovery.dir", "cannot use " + dir + " as the NodeManager's state "
          + "store: " + e);
    }
  }

  public boolean enabled() {
    return store != null;
  }

  public NmRecoverySettings settings() {
    return settings;
  }

  /** The localized resources kept in the store; usable from any thread. */
  public LocalizedRecords localizedResources() {
    return resources;
  }

  /** What the store held when the NodeManager started. */
  public NmState recovered() {
    return recovered;
  }

  /**
   * The applications recorded and not said to have ended, with or without containers: a
   * registration names them so that the RM says which of them ended meanwhile.
   */
  public Set<String> runningApplications() {
    Set<String> ids = new TreeSet<>();
    applications.values().stream().filter(a -> !a.ended()).forEach(a -> ids.add(a.applicationId()));
    return ids;
  }

  /** @throws IOException when it could not be recorded; the container must then not start */
  public void accepted(ContainerRecord r) throws IOException {
    if (store == null) return;
    if (!applications.containsKey(r.applicationId())) {
      StoredApplication app = new StoredApplication(r.applicationId(), r.user(), false);
      store.put(app);
      applications.put(app.applicationId(), app);
    }
    StoredContainer c = StoredContainer.accepted(r);
    store.put(c);
    containers.put(c.containerId(), c);
  }

  /** Its process runs as {@code pid}; recorded with what tells that process from a later one of the same pid. */
  public void launched(String containerId, long pid) {
    StoredContainer c = containers.get(containerId);
    if (c == null || c.pid() == pid && c.startTicks() >= 0) return;
    update(containerId, s -> s.launched(ProcessIdentity.of(pid)), "process " + pid);
  }

  public void killing(String containerId, KillReason reason, String diagnostics) {
    update(containerId, s -> s.killing(reason, diagnostics), "kill (" + reason + ")");
  }

  public void completed(ContainerRecord done) {
    update(done.containerId(), s -> s.completed(done), "exit status " + done.exitCode());
  }

  /** The RM recorded these completions: the containers, and ended applications left without any, are forgotten. */
  public void acknowledged(Collection<String> containerIds) {
    if (store == null) return;
    for (String id : containerIds) {
      StoredContainer c = containers.get(id);
      if (c == null || !c.state().isFinal()) continue;
      try {
        store.removeContainer(id);
        containers.remove(id);
        forgetIfDone(c.applicationId());
      } catch (IOException e) {
        log.error("Could not forget acknowledged container {} in the NodeManager's state store: {}", id, e.toString());
      }
    }
  }

  public void applicationEnded(String applicationId) {
    if (store == null) return;
    StoredApplication app = applications.get(applicationId);
    if (app == null || app.ended()) return;
    try {
      store.put(app.asEnded());
      applications.put(applicationId, app.asEnded());
      forgetIfDone(applicationId);
    } catch (IOException e) {
      log.error("Could not record the end of application {} in the NodeManager's state store: {}", applicationId,
          e.toString());
    }
  }

  private void forgetIfDone(String applicationId) throws IOException {
    StoredApplication app = applications.get(applicationId);
    if (app == null || !app.ended()) return;
    if (containers.values().stream().anyMatch(c -> c.applicationId().equals(applicationId))) return;
    store.removeApplication(applicationId);
    applications.remove(applicationId);
  }

  private void update(String containerId, UnaryOperator<StoredContainer> change, String what) {
    if (store == null) return;
    StoredContainer c = containers.get(containerId);
    if (c == null) return;
    StoredContainer next = change.apply(c);
    try {
      store.put(next);
      containers.put(containerId, next);
    } catch (IOException e) {
      log.error("Could not record the {} of container {} in the NodeManager's state store: {}. A NodeManager "
          + "restarted before its next write knows it as it was", what, containerId, e.toString());
    }
  }
}
