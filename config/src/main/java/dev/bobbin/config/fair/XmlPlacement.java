package dev.bobbin.config.fair;

import dev.bobbin.config.SettingsException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.w3c.dom.Element;

/** The {@code <queuePlacementPolicy>} element: {@code <rule name=".." create=".." queue="..">}. */
final class XmlPlacement {
  private static final String KEY = "allocations/queuePlacementPolicy";

  private XmlPlacement() {}

  static PlacementPolicy read(Element policy) {
    Xml.allowAttributes(policy, KEY, Set.of());
    List<PlacementRule> rules = new ArrayList<>();
    for (Element c : Xml.children(policy)) {
      if (!c.getTagName().equals("rule")) {
        throw new SettingsException(
            KEY + "/" + c.getTagName(),
            "unknown element <" + c.getTagName() + ">; rules are written <rule name=\"...\"/>");
      }
      rules.add(rule(c, ruleKey(rules.size() + 1)));
    }
    return PlacementPolicy.checked(rules, KEY, XmlPlacement::ruleKey);
  }

  private static String ruleKey(int n) {
    return KEY + "/rule[" + n + "]";
  }

  private static PlacementRule rule(Element e, String key) {
    Xml.allowAttributes(e, key, Set.of("name", "create", "queue"));
    if (e.getAttribute("name").isBlank()) throw new SettingsException(key, "rule has no name");
    PlacementRule.Kind kind = PlacementRule.Kind.parse(key, e.getAttribute("name"));
    boolean create = true;
    if (e.hasAttribute("create")) {
      String v = e.getAttribute("create").trim();
      if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
        throw new SettingsException(key, "create must be true or false, was '" + v + "'");
      }
      create = Boolean.parseBoolean(v);
    }
    String queue = null;
    if (e.hasAttribute("queue")) {
      if (kind != PlacementRule.Kind.DEFAULT) {
        throw new SettingsException(key, "the queue attribute applies to the default rule only");
      }
      String q = e.getAttribute("queue").trim();
      if (!q.isEmpty()) {
        String problem = QueueNames.problemWithPath(q);
        if (problem != null) throw new SettingsException(key, problem);
        queue = q;
      }
    }
    String parentKey = key + "/rule";
    PlacementRule parent = null;
    for (Element c : Xml.children(e)) {
      if (!c.getTagName().equals("rule")) {
        throw new SettingsException(key + "/" + c.getTagName(), "unknown element <" + c.getTagName() + ">");
      }
      if (parent != null) throw new SettingsException(parentKey, "a rule takes at most one nested (parent) rule");
      parent = rule(c, parentKey);
    }
    PlacementRule rule = new PlacementRule(kind, create, queue, parent);
    rule.check(key, parentKey);
    return rule;
  }
}
