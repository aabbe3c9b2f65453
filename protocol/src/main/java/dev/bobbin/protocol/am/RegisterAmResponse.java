package dev.bobbin.protocol.am;

import dev.bobbin.protocol.Resource;
import java.util.List;

public record RegisterAmResponse(
    Resource maximumCapability, String queue, List<Container> containersFromPreviousAttempts) {
  public RegisterAmResponse {
    containersFromPreviousAttempts =
        containersFromPreviousAttempts == null ? List.of() : List.copyOf(containersFromPreviousAttempts);
  }
}
