package dev.bobbin.node.monitor;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the monitor last measured of each container it watches, for the NodeManager's container
 * reports to read without asking the monitor.
 */
public final class ContainerUsages {
  /**
   * @param cpuMillis CPU time of the tree's live processes
   * @param cpuPercentPerCore CPU used since the measurement before, 100 being one core's worth
   */
  public record Usage(long pmemBytes, long vmemBytes, long cpuMillis, float cpuPercentPerCore) {}

  private final Map<String, Usage> byContainer = new ConcurrentHashMap<>();

  public Optional<Usage> of(String containerId) {
    return Optional.ofNullable(byContainer.get(containerId));
  }

  void put(String containerId, Usage usage) {
    byContainer.put(containerId, usage);
  }

  void remove(String containerId) {
    byContainer.remove(containerId);
  }
}
