package dev.bobbin.launcher.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.protocol.WireJson;

/** Turns an error answer of the ResourceManager into the one line the user sees. */
final class RmErrors {
  // YARN's NotFound/BadRequest exceptions wrap "new Exception(msg)", which prefixes the message.
  private static final String WRAPPED_PREFIX = "java.lang.Exception: ";
  private static final int MAX_TEXT = 300;

  private RmErrors() {}

  static String describe(int status, String body) {
    JsonNode remote = parse(body).path("RemoteException");
    if (remote.isObject()) {
      String exception = remote.path("exception").asText("");
      if (exception.isBlank()) {
        String className = remote.path("javaClassName").asText("RemoteException");
        exception = className.substring(className.lastIndexOf('.') + 1);
      }
      String message = remote.path("message").asText("");
      if (message.startsWith(WRAPPED_PREFIX)) message = message.substring(WRAPPED_PREFIX.length());
      return exception + ": " + message;
    }
    String text = body == null ? "" : body.strip();
    return "The ResourceManager answered HTTP " + status + (text.isEmpty() ? "" : ": " + abbreviate(text));
  }

  static String abbreviate(String text) {
    String oneLine = text.strip().replaceAll("\\s+", " ");
    return oneLine.length() <= MAX_TEXT ? oneLine : oneLine.substring(0, MAX_TEXT) + "...";
  }

  private static JsonNode parse(String body) {
    try {
      return body == null || body.isBlank() ? WireJson.mapper().missingNode() : WireJson.mapper().readTree(body);
    } catch (Exception notJson) {
      return WireJson.mapper().missingNode();
    }
  }
}
