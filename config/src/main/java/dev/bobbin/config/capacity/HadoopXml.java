package dev.bobbin.config.capacity;

import dev.bobbin.config.SettingsException;
import dev.bobbin.config.fair.Xml;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.w3c.dom.Element;

/**
 * Reads Hadoop configuration files ({@code capacity-scheduler.xml}, {@code yarn-site.xml}):
 * {@code <configuration>} holding {@code <property>} elements with a name, a value and optionally
 * {@code <final>true</final>}. As in Hadoop, a later file overrides an earlier one unless the
 * earlier marked the property final, a property given twice takes its later value, and
 * {@code ${name}} in a value is replaced by a system property, another property, or (as
 * {@code ${env.NAME}}, {@code ${env.NAME:-default}}) an environment variable.
 */
final class HadoopXml {
  private static final String TOP = "configuration";
  private static final Set<String> PROPERTY_PARTS = Set.of("name", "value", "final", "description", "source", "tag");

  /** One file's text and the name to give it in errors. */
  record Source(InputStream in, String name) {}

  private final Map<String, String> values = new LinkedHashMap<>();
  private final Map<String, String> files = new LinkedHashMap<>();
  private final Set<String> finals = new java.util.HashSet<>();
  private final List<ConfigWarning> warnings = new ArrayList<>();

  private HadoopXml() {}

  /** The files' properties, later files over earlier ones, with variables substituted. */
  static HadoopProperties read(List<Source> sources, VariableLookup lookup) {
    HadoopXml x = new HadoopXml();
    for (Source s : sources) x.file(s);
    Map<String, HadoopProperties.Property> out = new LinkedHashMap<>();
    Substitution subst = new Substitution(x.values, lookup);
    x.values.forEach((k, v) -> out.put(k, new HadoopProperties.Property(subst.apply(v), k)));
    return new HadoopProperties(out, x.warnings);
  }

  static Source open(Path file) {
    try {
      return new Source(Files.newInputStream(file), file.toString());
    } catch (NoSuchFileException e) {
      throw new SettingsException(file.toString(), "no such file");
    } catch (IOException e) {
      throw new SettingsException(file.toString(), "cannot read: " + e.getMessage());
    }
  }

  private void file(Source s) {
    Element top;
    try (InputStream in = s.in()) {
      top = Xml.read(in, s.name()).getDocumentElement();
    } catch (IOException e) {
      throw new SettingsException(s.name(), "cannot read: " + e.getMessage());
    }
    if (!top.getTagName().equals(TOP)) {
      throw new SettingsException(s.name(), "the top-level element must be <configuration>, was <" + top.getTagName() + ">");
    }
    Map<String, String> inThisFile = new LinkedHashMap<>();
    for (Element e : Xml.children(top)) {
      String tag = e.getTagName();
      if (tag.endsWith("include")) {
        throw new SettingsException(s.name(), "<" + tag + "> is not supported; put the included properties in this file");
      }
      if (!tag.equals("property")) throw new SettingsException(s.name(), "unknown element <" + tag + "> in <configuration>");
      property(s.name(), e, inThisFile);
    }
  }

  private void property(String file, Element e, Map<String, String> inThisFile) {
    Xml.allowAttributes(e, file + ": <property>", Set.of("name", "value", "final", "tag"));
    String name = e.hasAttribute("name") ? e.getAttribute("name") : null;
    String value = e.hasAttribute("value") ? e.getAttribute("value") : null;
    boolean isFinal = e.hasAttribute("final") && e.getAttribute("final").trim().equals("true");
    for (Element c : Xml.children(e)) {
      String part = c.getTagName();
      if (!PROPERTY_PARTS.contains(part)) {
        throw new SettingsException(file + ": " + (name == null ? "<property>" : name), "unknown element <" + part + "> in <property>");
      }
      String text = Xml.text(c, file + ": <" + part + ">");
      switch (part) {
        case "name" -> name = text;
        case "value" -> value = text;
        case "final" -> isFinal = text.trim().equals("true");
        default -> {}
      }
    }
    if (name == null || name.isBlank()) throw new SettingsException(file, "a <property> without a <name>");
    name = name.trim();
    if (value == null) {
      warnings.add(new ConfigWarning(name, "has no <value> in " + file + "; ignored, as Hadoop ignores it"));
      return;
    }
    if (inThisFile.containsKey(name) && !inThisFile.get(name).equals(value)) {
      warnings.add(new ConfigWarning(name, "is set twice in " + file + "; the later value '" + value + "' is used, as in Hadoop"));
    }
    inThisFile.put(name, value);
    if (finals.contains(name) && !files.get(name).equals(file)) {
      warnings.add(new ConfigWarning(name, "is final in " + files.get(name) + "; the value in " + file + " is ignored, as in Hadoop"));
      return;
    }
    values.put(name, value);
    files.put(name, file);
    if (isFinal) finals.add(name);
  }
}
