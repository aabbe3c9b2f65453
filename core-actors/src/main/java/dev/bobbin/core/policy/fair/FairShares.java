package dev.bobbin.core.policy.fair;

import dev.bobbin.protocol.Resource;
import java.util.Map;

/**
 * What one share computation produced: per queue path its steady and instantaneous fair share,
 * and per application id its share of its leaf queue's instantaneous fair share.
 */
public record FairShares(Map<String, QueueShare> queues, Map<String, Resource> apps) {
  public FairShares {
    queues = Map.copyOf(queues);
    apps = Map.copyOf(apps);
  }

  /** @param active whether the queue (or a descendant) has running applications */
  public record QueueShare(
      String path, Resource steadyFairShare, Resource fairShare, Resource usage, Resource demand,
      boolean active) {}
}
