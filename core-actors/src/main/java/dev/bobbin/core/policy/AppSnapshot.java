package dev.bobbin.core.policy;

import dev.bobbin.protocol.Resource;

/**
 * A running application as the Fair policy sees it.
 *
 * @param usage resources of its live containers, AM included
 * @param pending resources still asked for and not allocated (unmet demand)
 * @param largestPendingAsk the biggest single container it is waiting for (what preemption must free
 *     to be useful), {@link Resource#NONE} when it asks for nothing
 */
public record AppSnapshot(
    String appId,
    String attemptId,
    String queuePath,
    int priority,
    long submitTime,
    Resource usage,
    Resource amUsage,
    Resource pending,
    Resource largestPendingAsk) {

  public Resource demand() {
    return usage.plus(pending);
  }
}
