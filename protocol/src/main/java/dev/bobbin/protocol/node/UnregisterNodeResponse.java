package dev.bobbin.protocol.node;

import dev.bobbin.protocol.CborSerializable;

/**
 * RM → NM. {@code diagnostics} is empty when the node is now SHUTDOWN, else says why nothing
 * changed (the node was unknown, or no longer live).
 */
public record UnregisterNodeResponse(String diagnostics) implements CborSerializable {
  public UnregisterNodeResponse {
    diagnostics = diagnostics == null ? "" : diagnostics;
  }
}
