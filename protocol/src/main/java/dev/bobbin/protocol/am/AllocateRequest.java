package dev.bobbin.protocol.am;

import java.util.List;

/**
 * AM → RM {@code POST /ws/v1/bobbin/am/allocate}, the AM's heartbeat. {@code responseId} is the
 * id of the last response received (0 after register); resending it returns that response again.
 */
public record AllocateRequest(
    int responseId, float progress, List<ResourceRequest> ask, List<String> release) {
  public AllocateRequest {
    ask = ask == null ? List.of() : List.copyOf(ask);
    release = release == null ? List.of() : List.copyOf(release);
  }
}
