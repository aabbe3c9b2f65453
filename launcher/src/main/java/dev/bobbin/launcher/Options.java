package dev.bobbin.launcher;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code --name value} options and positional arguments, checked against what a command knows. */
final class Options {
  final Map<String, String> named = new LinkedHashMap<>();
  final List<String> positional = new ArrayList<>();

  static Options parse(List<String> args, Set<String> known) {
    Options o = new Options();
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (a.startsWith("--")) {
        String name = a.substring(2);
        String value = null;
        int eq = name.indexOf('=');
        if (eq >= 0) {
          value = name.substring(eq + 1);
          name = name.substring(0, eq);
        }
        if (!known.contains(name)) throw new UsageException("unknown option --" + name);
        if (value == null) {
          if (i + 1 >= args.size()) throw new UsageException("option --" + name + " needs a value");
          value = args.get(++i);
        }
        o.named.put(name, value);
      } else {
        o.positional.add(a);
      }
    }
    return o;
  }

  String get(String name, String dflt) {
    return named.getOrDefault(name, dflt);
  }

  int intValue(String name, int dflt) {
    String v = named.get(name);
    if (v == null) return dflt;
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new UsageException("--" + name + " must be a whole number, was '" + v + "'");
    }
  }

  /** A command line the user got wrong; the message names what. */
  static final class UsageException extends RuntimeException {
    UsageException(String message) {
      super(message);
    }
  }
}
