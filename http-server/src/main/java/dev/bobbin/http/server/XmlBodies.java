package dev.bobbin.http.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import javax.xml.XMLConstants;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.stream.XMLStreamWriter;

/**
 * YARN's XML bodies as JAXB writes and reads Hadoop's web service classes, to and from the JSON
 * trees Bobbin's routes build and read: an object is an element per field, an array is its field's
 * element repeated ({@code {"apps":{"app":[a,b]}}} is {@code <apps><app>a</app><app>b</app></apps>}),
 * a value is the element's text, and a null is left out. Read back, an element with child elements is
 * an object, a repeated child an array, any other element its text. No DTD or external entity is
 * read.
 */
public final class XmlBodies {
  /** Nesting no YARN body comes near, as for JSON ({@link RequestJson}). */
  private static final int MAX_DEPTH = 32;
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  /** The element names YARN's bodies use; a field named otherwise (a map's key, say) has no element. */
  private static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]*");
  private static final XMLInputFactory INPUT = input();
  private static final XMLOutputFactory OUTPUT = XMLOutputFactory.newFactory();

  /** A document that is not XML, or not the shape a YARN body has. */
  public static final class MalformedXml extends RuntimeException {
    private static final long serialVersionUID = 1L;

    MalformedXml(String message) {
      super(message);
    }
  }

  /** The document's root element name and its content. */
  public record Document(String root, JsonNode content) {}

  private XmlBodies() {}

  private static XMLInputFactory input() {
    XMLInputFactory f = XMLInputFactory.newFactory();
    f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    f.setProperty(XMLInputFactory.IS_COALESCING, true);
    return f;
  }

  /**
   * {@code tree} (an object) as the element {@code root}.
   *
   * @throws IllegalArgumentException when a field's name cannot be an element's
   */
  public static byte[] write(String root, JsonNode tree) {
    return write(root, tree, Set.of());
  }

  /**
   * The same, where an object whose {@code type} field is one of {@code xsiTypes} is written with
   * that type as its {@code xsi:type} attribute, as JAXB writes a subclass where its base class is
   * declared (the JSON's {@code "type":"fairSchedulerLeafQueueInfo"} is JAXB's {@code xsi:type}).
   */
  public static byte[] write(String root, JsonNode tree, Set<String> xsiTypes) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      XMLStreamWriter w = OUTPUT.createXMLStreamWriter(out, "UTF-8");
      w.writeStartDocument("UTF-8", "1.0");
      element(w, root, tree, xsiTypes);
      w.writeEndDocument();
      w.close();
    } catch (XMLStreamException e) {
      throw new IllegalStateException("Cannot write an XML body", e);
    }
    return out.toByteArray();
  }

  /** A root-wrapped tree, {@code {"clusterInfo":{..}}}, as its root element. */
  public static byte[] write(JsonNode wrapped, Set<String> xsiTypes) {
    if (!wrapped.isObject() || wrapped.size() != 1) {
      throw new IllegalArgumentException("Not a root-wrapped body: " + wrapped.size() + " fields");
    }
    Map.Entry<String, JsonNode> root = wrapped.fields().next();
    return write(root.getKey(), root.getValue(), xsiTypes);
  }

  private static void element(XMLStreamWriter w, String name, JsonNode n, Set<String> xsiTypes)
      throws XMLStreamException {
    if (n == null || n.isNull() || n.isMissingNode()) return;
    if (n.isArray()) {
      for (JsonNode item : n) element(w, name, item, xsiTypes);
      return;
    }
    if (!NAME.matcher(name).matches()) throw new IllegalArgumentException("No XML element can be named '" + name + "'");
    w.writeStartElement(name);
    String xsiType = n.isObject() && n.path("type").isTextual() && xsiTypes.contains(n.path("type").asText())
        ? n.path("type").asText() : null;
    if (xsiType != null) {
      w.writeNamespace("xsi", XMLConstants.W3C_XML_SCHEMA_INSTANCE_NS_URI);
      w.writeAttribute("xsi", XMLConstants.W3C_XML_SCHEMA_INSTANCE_NS_URI, "type", xsiType);
    }
    if (n.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> f = it.next();
        if (xsiType == null || !f.getKey().equals("type")) element(w, f.getKey(), f.getValue(), xsiTypes);
      }
    } else {
      w.writeCharacters(n.asText());
    }
    w.writeEndElement();
  }

  /** @throws MalformedXml when the document cannot be read, naming why */
  public static Document read(String xml) {
    try {
      XMLStreamReader r = INPUT.createXMLStreamReader(new StringReader(xml));
      try {
        while (r.hasNext() && r.next() != XMLStreamConstants.START_ELEMENT) {
          if (r.getEventType() == XMLStreamConstants.DTD) throw new MalformedXml("a DTD is not accepted");
        }
        if (r.getEventType() != XMLStreamConstants.START_ELEMENT) throw new MalformedXml("no root element");
        String root = r.getLocalName();
        return new Document(root, content(r, 1));
      } finally {
        r.close();
      }
    } catch (XMLStreamException e) {
      throw new MalformedXml(e.getMessage());
    }
  }

  /** The content of the element whose start the reader is at, up to and with its end. */
  private static JsonNode content(XMLStreamReader r, int depth) throws XMLStreamException {
    if (depth > MAX_DEPTH) throw new MalformedXml("elements nest deeper than " + MAX_DEPTH);
    String name = r.getLocalName();
    for (int i = 0; i < r.getAttributeCount(); i++) {
      String ns = r.getAttributeNamespace(i);
      if (!XMLConstants.W3C_XML_SCHEMA_INSTANCE_NS_URI.equals(ns)) {
        throw new MalformedXml("the attribute " + r.getAttributeLocalName(i) + " of <" + name + "> is not read");
      }
    }
    StringBuilder text = new StringBuilder();
    ObjectNode children = null;
    Set<String> repeated = new HashSet<>();
    while (true) {
      int event = r.next();
      switch (event) {
        case XMLStreamConstants.START_ELEMENT -> {
          if (children == null) children = NODES.objectNode();
          String child = r.getLocalName();
          JsonNode value = content(r, depth + 1);
          JsonNode earlier = children.get(child);
          if (earlier == null) children.set(child, value);
          else if (repeated.add(child)) children.set(child, NODES.arrayNode().add(earlier).add(value));
          else ((ArrayNode) earlier).add(value);
        }
        case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE ->
            text.append(r.getText());
        case XMLStreamConstants.ENTITY_REFERENCE -> throw new MalformedXml("entity references are not accepted");
        case XMLStreamConstants.END_ELEMENT -> {
          if (children == null) return NODES.textNode(text.toString());
          if (!text.toString().isBlank()) throw new MalformedXml("<" + name + "> has both text and elements");
          return children;
        }
        default -> { }
      }
    }
  }
}
