package dev.bobbin.core.policy;

import dev.bobbin.protocol.Resource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** YARN's {@code fifoScheduler} view: the cluster as one queue, with the configured queue names. */
public record FifoView(Resource capacity, Resource used, int numNodes, int numContainers, long minimumAllocationMb,
    long maximumAllocationMb, List<String> queues) implements SchedulerView {

  @Override
  public Map<String, Object> schedulerInfo() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("type", "fifoScheduler");
    m.put("capacity", 1.0f);
    m.put("usedCapacity", capacity.memory() > 0 ? (float) used.memory() / capacity.memory() : 0f);
    m.put("qstate", "RUNNING");
    m.put("minQueueMemoryCapacity", minimumAllocationMb);
    m.put("maxQueueMemoryCapacity", maximumAllocationMb);
    m.put("numNodes", numNodes);
    m.put("usedNodeCapacity", used.memory());
    m.put("availNodeCapacity", capacity.memory() - used.memory());
    m.put("totalNodeCapacity", capacity.memory());
    m.put("numContainers", numContainers);
    m.put("queues", queues);
    return m;
  }
}
