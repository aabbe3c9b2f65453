package dev.bobbin.core.policy;

import java.util.List;

/**
 * An application attempt with demand. Within a queue, higher {@code priority} goes first, then
 * earlier {@code submitTime}, then the application id.
 */
public record AppView(
    String appId, String attemptId, String queue, int priority, long submitTime, List<Ask> asks) {
  public AppView {
    asks = List.copyOf(asks);
  }
}
