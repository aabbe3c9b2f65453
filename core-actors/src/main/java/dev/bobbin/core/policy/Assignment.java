package dev.bobbin.core.policy;

import dev.bobbin.protocol.Resource;

/** One container the policy places: for which ask of whom, on which node, and why. */
public record Assignment(String appId, String attemptId, String nodeId, Ask ask, String reason) {
  public Resource capability() {
    return ask.capability();
  }
}
