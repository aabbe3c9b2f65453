package dev.bobbin.core.policy;

import java.util.List;

/**
 * One decision to take containers back on a node, for one starved application.
 *
 * @param starvedQueue the starved application's queue (full path)
 * @param kind what it is starved of, in the policy's words (e.g. FAIR_SHARE, MIN_SHARE)
 * @param victims the applications that lose containers, each with the containers and why them
 */
public record Preemption(String starvedAppId, String starvedQueue, String kind, String nodeId,
    List<Victim> victims) {
  public Preemption {
    victims = List.copyOf(victims);
  }

  /** @param reason the whole case for taking these containers: the starvation and this victim's numbers */
  public record Victim(String appId, List<String> containerIds, String reason) {
    public Victim {
      containerIds = List.copyOf(containerIds);
    }
  }
}
