package dev.bobbin.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.bobbin.core.base.Rejection;
import dev.bobbin.http.server.XmlBodies;

/**
 * A request body in JSON or, with an XML content type, in XML as JAXB writes Hadoop's classes: read
 * into the same tree either way, so that each route reads one shape.
 */
record RequestBody(String text, boolean xml) {
  /**
   * The body as a JSON object. An XML document whose root is {@code unwrappedRoot} reads as that
   * element's fields, as YARN's JSON for the class has no root ({@code appstate}: {@code
   * {"state":..}}); any other root stays a field ({@code <timeout>}: {@code {"timeout":{..}}}).
   */
  JsonNode tree(String unwrappedRoot) {
    if (!xml) return Bodies.tree(text);
    if (text == null || text.isBlank()) throw Rejection.badRequest("The request body is empty");
    XmlBodies.Document doc;
    try {
      doc = XmlBodies.read(text);
    } catch (XmlBodies.MalformedXml e) {
      throw Rejection.badRequest("Malformed XML request body: " + e.getMessage());
    }
    JsonNode content = doc.content().isTextual() && doc.content().asText().isBlank()
        ? JsonNodeFactory.instance.objectNode() : doc.content();
    if (doc.root().equals(unwrappedRoot)) {
      if (!content.isObject()) throw Rejection.badRequest("<" + unwrappedRoot + "> must hold elements");
      return content;
    }
    return JsonNodeFactory.instance.objectNode().set(doc.root(), content);
  }
}
