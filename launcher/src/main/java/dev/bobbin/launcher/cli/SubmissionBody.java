package dev.bobbin.launcher.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bobbin.am.shell.ShippedResources;
import dev.bobbin.protocol.LocalResource;
import dev.bobbin.protocol.WireJson;
import java.util.List;
import java.util.Map;

/** YARN's {@code ApplicationSubmissionContextInfo} for a distributed-shell application. */
final class SubmissionBody {
  static final String APPLICATION_TYPE = "DISTRIBUTED-SHELL";
  static final int AM_VCORES = 1;

  private SubmissionBody() {}

  /** @param shipped what the AM gives each of its containers, passed to it in its environment */
  static ObjectNode of(String applicationId, SubmitCommand options, List<String> amCommands,
      Map<String, LocalResource> shipped) {
    ObjectNode body = WireJson.mapper().createObjectNode();
    body.put("application-id", applicationId);
    body.put("application-name", options.name);
    body.put("queue", options.queue);
    if (options.priority != null) body.put("priority", options.priority);
    body.put("application-type", APPLICATION_TYPE);
    body.put("max-app-attempts", options.maxAttempts());
    if (options.keepContainers) body.put("keep-containers-across-application-attempts", true);
    ObjectNode resource = body.putObject("resource");
    resource.put("memory", options.amMemory);
    resource.put("vCores", AM_VCORES);
    ObjectNode spec = body.putObject("am-container-spec");
    ArrayNode commands = spec.putObject("commands").putArray("command");
    amCommands.forEach(commands::add);
    ArrayNode env = spec.putObject("environment").putArray("entry");
    if (!shipped.isEmpty()) {
      env.addObject().put("key", ShippedResources.ENV).put("value", ShippedResources.encode(shipped));
    }
    body.putObject("application-tags").putArray("tag");
    return body;
  }
}
