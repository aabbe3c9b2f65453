package dev.bobbin.launcher.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bobbin.protocol.WireJson;
import java.util.List;

/** YARN's {@code ApplicationSubmissionContextInfo} for a distributed-shell application. */
final class SubmissionBody {
  static final String APPLICATION_TYPE = "DISTRIBUTED-SHELL";
  static final int AM_VCORES = 1;

  private SubmissionBody() {}

  static ObjectNode of(String applicationId, SubmitCommand options, List<String> amCommands) {
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
    spec.putObject("environment").putArray("entry");
    body.putObject("application-tags").putArray("tag");
    return body;
  }
}
