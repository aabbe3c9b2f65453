package dev.bobbin.config.fair;

import dev.bobbin.config.SettingsException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import org.xml.sax.ErrorHandler;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * DOM reading with the JDK parser: no DTDs or external entities, errors as SettingsException.
 * Shared by the Hadoop file importers.
 */
public final class Xml {
  private Xml() {}

  public static Document read(InputStream in, String source) {
    try {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setNamespaceAware(false);
      f.setIgnoringComments(true);
      f.setCoalescing(true);
      f.setExpandEntityReferences(false);
      f.setXIncludeAware(false);
      f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      DocumentBuilder b = f.newDocumentBuilder();
      b.setErrorHandler(THROWING);
      return b.parse(in);
    } catch (SAXParseException e) {
      throw new SettingsException(source, "malformed XML at line " + e.getLineNumber() + ": " + e.getMessage());
    } catch (SAXException e) {
      throw new SettingsException(source, "malformed XML: " + e.getMessage());
    } catch (IOException e) {
      throw new SettingsException(source, "cannot read: " + e.getMessage());
    } catch (ParserConfigurationException e) {
      throw new IllegalStateException("the JDK's XML parser is unavailable", e);
    }
  }

  /** Without it the JDK parser also prints "[Fatal Error]" lines to stderr. */
  private static final ErrorHandler THROWING =
      new ErrorHandler() {
        @Override
        public void warning(SAXParseException e) {}

        @Override
        public void error(SAXParseException e) throws SAXException {
          throw e;
        }

        @Override
        public void fatalError(SAXParseException e) throws SAXException {
          throw e;
        }
      };

  public static List<Element> children(Element e) {
    List<Element> out = new ArrayList<>();
    for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element c) out.add(c);
    }
    return out;
  }

  /** The element's text, untrimmed (ACLs give meaning to a leading space). */
  public static String text(Element e, String key) {
    StringBuilder s = new StringBuilder();
    for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element c) {
        throw new SettingsException(key, "<" + e.getTagName() + "> holds a value, not elements like <" + c.getTagName() + ">");
      }
      if (n.getNodeType() == Node.TEXT_NODE || n.getNodeType() == Node.CDATA_SECTION_NODE) {
        s.append(n.getNodeValue());
      }
    }
    return s.toString();
  }

  public static void allowAttributes(Element e, String key, Set<String> allowed) {
    NamedNodeMap attrs = e.getAttributes();
    for (int i = 0; i < attrs.getLength(); i++) {
      String name = attrs.item(i).getNodeName();
      if (!allowed.contains(name)) {
        throw new SettingsException(key, "unknown attribute " + name + " on <" + e.getTagName() + ">");
      }
    }
  }
}
