package dev.bobbin.core.scheduler;

import dev.bobbin.core.app.ApplicationEntity;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.protocol.CborSerializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a checkpoint of the scheduler's model holds: the states of the entities a recovering
 * scheduler can still need, in parts of at most {@link #PART_SIZE} entities. An entity that can
 * play no further part is left out, so that a checkpoint grows with what is live, not with
 * history: a completed container whose completion was delivered (or whose application ended),
 * and an ended application none of whose kept containers is left. Events of a left-out entity
 * that come after the checkpoint are ignored by the recovery's folds ({@link JournalRecovery}).
 */
final class ModelCheckpoint {
  static final String NAME = "scheduler-model";
  static final int PART_SIZE = 5_000;

  private ModelCheckpoint() {}

  record Part(Map<String, ApplicationEntity.State> apps, Map<String, ContainerEntity.State> containers,
      Map<String, NodeEntity.State> nodes) implements CborSerializable {}

  /**
   * The application's event handler, except that an event of an application the checkpoint left
   * out (its state is then empty) is ignored; without a checkpoint an entity's first event that
   * matters here is always its submission (before it, at most its id was issued, which the model
   * does not need), so this changes nothing there.
   */
  static ApplicationEntity.State apply(ApplicationEntity.State s, ApplicationEntity.Event e) {
    return s.exists() || e instanceof ApplicationEntity.Submitted ? s.apply(e) : s;
  }

  /** The container's event handler, ignoring events of a container the checkpoint left out. */
  static ContainerEntity.State apply(ContainerEntity.State s, ContainerEntity.Event e) {
    return s.allocation() != null || e instanceof ContainerEntity.Allocated ? s.apply(e) : s;
  }

  /**
   * A completed container whose completion its application recorded as delivered
   * ({@link ApplicationEntity.CompletionsDelivered}); a container not completed is left as it is.
   */
  static ContainerEntity.State delivered(ContainerEntity.State c) {
    return c.phase() == ContainerEntity.Phase.COMPLETED ? c.apply(new ContainerEntity.CompletionDelivered()) : c;
  }

  static RecoveredModel prune(RecoveredModel m) {
    Map<String, ContainerEntity.State> containers = new HashMap<>();
    Set<String> appsWithContainers = new HashSet<>();
    m.containers().forEach((id, c) -> {
      if (c.allocation() == null) return;
      ApplicationEntity.State app = m.apps().get(c.allocation().appId());
      boolean appEnded = app != null && app.exists() && app.state().isFinal();
      if (c.phase() == ContainerEntity.Phase.COMPLETED && (c.completionDelivered() || appEnded)) return;
      containers.put(id, c);
      appsWithContainers.add(c.allocation().appId());
    });
    Map<String, ApplicationEntity.State> apps = new HashMap<>();
    m.apps().forEach((id, a) -> {
      if (a.exists() && (!a.state().isFinal() || appsWithContainers.contains(id))) apps.put(id, a);
    });
    Map<String, NodeEntity.State> nodes = new HashMap<>();
    m.nodes().forEach((id, n) -> {
      if (n.registration() != null) nodes.put(id, n);
    });
    return new RecoveredModel(apps, containers, nodes);
  }

  static List<Part> parts(RecoveredModel m) {
    List<Part> parts = new ArrayList<>();
    Part p = emptyPart();
    for (var e : m.apps().entrySet()) {
      p.apps().put(e.getKey(), e.getValue());
      p = nextIfFull(p, parts);
    }
    for (var e : m.containers().entrySet()) {
      p.containers().put(e.getKey(), e.getValue());
      p = nextIfFull(p, parts);
    }
    for (var e : m.nodes().entrySet()) {
      p.nodes().put(e.getKey(), e.getValue());
      p = nextIfFull(p, parts);
    }
    if (size(p) > 0) parts.add(p);
    return parts;
  }

  static RecoveredModel model(List<Object> parts) {
    Map<String, ApplicationEntity.State> apps = new HashMap<>();
    Map<String, ContainerEntity.State> containers = new HashMap<>();
    Map<String, NodeEntity.State> nodes = new HashMap<>();
    for (Object o : parts) {
      Part p = (Part) o;
      apps.putAll(p.apps());
      containers.putAll(p.containers());
      nodes.putAll(p.nodes());
    }
    return new RecoveredModel(apps, containers, nodes);
  }

  private static Part emptyPart() {
    return new Part(new HashMap<>(), new HashMap<>(), new HashMap<>());
  }

  private static Part nextIfFull(Part p, List<Part> parts) {
    if (size(p) < PART_SIZE) return p;
    parts.add(p);
    return emptyPart();
  }

  private static int size(Part p) {
    return p.apps().size() + p.containers().size() + p.nodes().size();
  }
}
