package dev.bobbin.core.policy.fair;

import dev.bobbin.protocol.Resource;
import java.util.List;

/**
 * Containers on one node to preempt so that one container of a starved application's request fits
 * there.
 *
 * @param freed the sum of the chosen containers' resources
 * @param reason one line for logs and the journal; {@code details} holds the same numbers as values
 */
public record PreemptionDecision(
    String starvedAppId, String nodeId, List<String> containerIds, Resource freed, String reason, Reason details) {

  public PreemptionDecision {
    containerIds = List.copyOf(containerIds);
  }

  /**
   * Why these containers.
   *
   * @param starved the starved application served (both parts of its starvation, share, usage,
   *     threshold, timeout, when it was last at its share)
   * @param queue its queue's min-share numbers when part of its starvation is min share; else {@code null}
   * @param ask the container size of the request served, which must fit on this node
   * @param nodeFreeBefore what the node had unallocated and not held for starved applications before
   *     this decision; with {@code freed} it covers {@code ask}
   * @param victims one entry per application losing containers, in the order they were chosen
   */
  public record Reason(
      Starvation.StarvedApp starved, Starvation.StarvedQueue queue, Resource ask, Resource nodeFreeBefore,
      List<Victim> victims) {
    public Reason {
      victims = List.copyOf(victims);
    }
  }

  /**
   * An application losing containers in this decision; it stays at or above its fair share.
   *
   * @param usageBefore its usage less what earlier marks and decisions already take from it
   * @param usageAfter {@code usageBefore - taken}
   */
  public record Victim(
      String appId, String queuePath, List<String> containerIds, int amContainers, Resource taken,
      Resource fairShare, Resource usageBefore, Resource usageAfter) {
    public Victim {
      containerIds = List.copyOf(containerIds);
    }
  }
}
