package dev.bobbin.core.scheduler;

import dev.bobbin.core.app.PreemptionRecord;
import dev.bobbin.core.policy.Preemption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The containers the policy is taking back, each with the record of why; killed at its {@code killAt}. */
final class Preempting {
  private final SchedulerModel model;
  private final Map<String, PreemptionRecord> records = new LinkedHashMap<>();

  Preempting(SchedulerModel model) {
    this.model = model;
  }

  PreemptionRecord of(String containerId) {
    return records.get(containerId);
  }

  Collection<PreemptionRecord> all() {
    return Collections.unmodifiableCollection(records.values());
  }

  /** The containers being taken back, by id. */
  Set<String> ids() {
    return Collections.unmodifiableSet(records.keySet());
  }

  /** A preemption the journal holds for a recovered or adopted container goes on. */
  void resume(PreemptionRecord record) {
    records.put(record.containerId(), record);
  }

  /** The container's completion is durable. */
  void ended(String containerId) {
    records.remove(containerId);
  }

  /**
   * Marks the decision's containers as being preempted, each with the record of why, unless it is
   * gone or already marked.
   *
   * @return the new records, which the actor journals with the container and both applications
   */
  List<PreemptionRecord> start(Preemption p, long now, long killAt) {
    List<PreemptionRecord> started = new ArrayList<>();
    for (Preemption.Victim v : p.victims()) {
      for (String id : v.containerIds()) {
        SchedContainer c = model.container(id);
        if (c == null || records.containsKey(id)) continue;
        PreemptionRecord record = new PreemptionRecord(id, v.appId(), p.starvedAppId(), p.starvedQueue(), p.kind(),
            c.allocation.resource(), c.allocation.am(), now, killAt, v.reason());
        records.put(id, record);
        started.add(record);
      }
    }
    return started;
  }

  /**
   * What the preemptions past their kill time call for.
   *
   * @param killed running containers now added to their node's kill list (each only once)
   * @param toRelease containers that never started, which the actor releases
   */
  record Due(List<PreemptionRecord> killed, List<PreemptionRecord> toRelease) {}

  Due due(long now) {
    List<PreemptionRecord> due = new ArrayList<>();
    for (PreemptionRecord r : records.values()) {
      if (r.killAt() <= now) due.add(r);
    }
    return kill(due);
  }

  /** The named preemptions killed now, whatever their kill time; ids not being preempted are passed over. */
  Due killNow(List<String> containerIds) {
    List<PreemptionRecord> due = new ArrayList<>();
    for (String id : containerIds) {
      PreemptionRecord r = records.get(id);
      if (r != null) due.add(r);
    }
    return kill(due);
  }

  private Due kill(List<PreemptionRecord> due) {
    List<PreemptionRecord> killed = new ArrayList<>();
    List<PreemptionRecord> toRelease = new ArrayList<>();
    for (PreemptionRecord r : due) {
      SchedContainer c = model.container(r.containerId());
      if (c == null) continue;
      if (c.phase == SchedContainer.Phase.RUNNING) {
        SchedNode node = model.node(c.allocation.nodeId());
        if (node != null && node.toKill.add(r.containerId())) killed.add(r);
      } else if (c.phase == SchedContainer.Phase.ALLOCATED) {
        toRelease.add(r);
      }
    }
    return new Due(killed, toRelease);
  }

  /**
   * The policy no longer wants the container: it is not being taken back any more, and ends as it
   * would have.
   *
   * @return the record dropped, which the actor journals as cancelled; null when there was none
   */
  PreemptionRecord cancel(String containerId) {
    return records.remove(containerId);
  }
}
