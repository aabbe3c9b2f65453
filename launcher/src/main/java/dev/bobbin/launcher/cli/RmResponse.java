package dev.bobbin.launcher.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.bobbin.protocol.WireJson;

/** A successful (below 400) answer of the ResourceManager. */
record RmResponse(int status, String uri, String body) {
  /** The body as JSON; a missing node when empty. */
  JsonNode json() {
    if (body == null || body.isBlank()) return MissingNode.getInstance();
    try {
      return WireJson.mapper().readTree(body);
    } catch (JsonProcessingException e) {
      throw RmFailure.error(
          "The ResourceManager answered " + uri + " with something that is not JSON: " + RmErrors.abbreviate(body));
    }
  }
}
