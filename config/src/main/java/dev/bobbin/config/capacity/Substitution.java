package dev.bobbin.config.capacity;

import java.util.Map;

/**
 * Hadoop Configuration's {@code ${...}} expansion: {@code ${env.NAME}} (with {@code :-default}
 * for unset or empty, {@code -default} for unset) from the environment, else a system property,
 * else another property. An unknown name is left as written; a value that refers to itself is left
 * whole; at most 20 expansions per value.
 */
final class Substitution {
  private static final int MAX_EXPANSIONS = 20;

  private final Map<String, String> properties;
  private final VariableLookup lookup;

  Substitution(Map<String, String> properties, VariableLookup lookup) {
    this.properties = properties;
    this.lookup = lookup;
  }

  String apply(String expr) {
    String eval = expr;
    for (int i = 0; i < MAX_EXPANSIONS; i++) {
      int[] at = firstVariable(eval);
      if (at == null) return eval;
      String name = eval.substring(at[0], at[1]);
      String value = resolve(name);
      if (value == null) return eval;
      String reference = "${" + name + "}";
      if (value.contains(reference)) return expr;
      eval = eval.substring(0, at[0] - 2) + value + eval.substring(at[1] + 1);
    }
    return eval;
  }

  private String resolve(String name) {
    String value;
    if (name.startsWith("env.") && name.length() > 4) {
      value = environment(name.substring(4));
    } else {
      value = lookup.systemProperty(name);
    }
    return value != null ? value : properties.get(name);
  }

  private String environment(String spec) {
    for (int i = 0; i < spec.length(); i++) {
      char c = spec.charAt(i);
      if (c == ':' && i < spec.length() - 1 && spec.charAt(i + 1) == '-') {
        String v = lookup.environment(spec.substring(0, i));
        return v == null || v.isEmpty() ? spec.substring(i + 2) : v;
      }
      if (c == '-') {
        String v = lookup.environment(spec.substring(0, i));
        return v == null ? spec.substring(i + 1) : v;
      }
    }
    return lookup.environment(spec);
  }

  /** The start and end of the first name in {@code ${name}} form, as Hadoop scans for it; null if none. */
  private static int[] firstVariable(String s) {
    int from = 1;
    for (int brace = s.indexOf('{', from); brace > 0 && brace + 2 < s.length(); brace = s.indexOf('{', from)) {
      if (s.charAt(brace - 1) != '$') {
        from = brace + 1;
        continue;
      }
      int start = brace + 1;
      int len = 0;
      boolean restarted = false;
      for (int i = start; i < s.length(); i++) {
        char c = s.charAt(i);
        if (c == '}' && len > 0) return new int[] {start, start + len};
        if (c == '}' || c == ' ' || c == '$') {
          from = i + 1;
          restarted = true;
          break;
        }
        len++;
      }
      if (!restarted) return null;
    }
    return null;
  }
}
