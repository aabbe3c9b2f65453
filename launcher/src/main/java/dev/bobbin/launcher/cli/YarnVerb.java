package dev.bobbin.launcher.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * A command spelt as {@code yarn} spells it ({@code bobbin application -list}): one action chosen by
 * a single-dash option, reads printed as 80-column tables or, with {@code --output json}, as the
 * RM's JSON.
 */
abstract class YarnVerb extends ClientCommand {
  static final int TERMINAL_WIDTH = 80;
  private static final ObjectMapper JSON = new ObjectMapper();

  enum Output { table, json }

  @Option(names = "--output", paramLabel = "table|json", description = "how reads are printed (default table)")
  Output output = Output.table;

  YarnVerb(ClientContext context, PrintStream out) {
    super(context, out);
  }

  /** The one action given, by its option name; a usage error unless exactly one of {@code given} is set. */
  static String action(Map<String, Boolean> given) {
    List<String> chosen = new ArrayList<>();
    given.forEach((name, set) -> {
      if (set) chosen.add(name);
    });
    if (chosen.size() == 1) return chosen.get(0);
    String all = String.join(", ", given.keySet());
    throw new UsageException(chosen.isEmpty() ? "Missing action: one of " + all
        : "Only one action at a time, got " + String.join(" and ", chosen));
  }

  /** {@code names} in order as a map of which were given, for {@link #action}. */
  static Map<String, Boolean> actions(Object... namesAndFlags) {
    Map<String, Boolean> m = new LinkedHashMap<>();
    for (int i = 0; i < namesAndFlags.length; i += 2) {
      Object v = namesAndFlags[i + 1];
      m.put((String) namesAndFlags[i], v instanceof Boolean b ? b : v != null);
    }
    return m;
  }

  /** Refuses {@code option} when the chosen action does not take it, so that nothing is ignored. */
  static void notWith(String action, String option, Object value) {
    if (value != null && !Boolean.FALSE.equals(value)) {
      throw new UsageException(option + " cannot be used with " + action);
    }
  }

  boolean json() {
    return output == Output.json;
  }

  /** Prints the RM's answer as it sent it. */
  int printJson(JsonNode answer) {
    try {
      out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(answer));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    return 0;
  }

  /** {@code node.path(outer).path(inner)} as a list: YARN sends null, one object or an array. */
  static List<JsonNode> elements(JsonNode node, String outer, String inner) {
    JsonNode list = node.path(outer).path(inner);
    List<JsonNode> out = new ArrayList<>();
    if (list.isArray()) list.forEach(out::add);
    else if (list.isObject()) out.add(list);
    return out;
  }

  /** A field as text; what the RM left out is empty. */
  static String text(JsonNode node, String field) {
    JsonNode v = node.path(field);
    return v.isMissingNode() || v.isNull() ? "" : v.asText();
  }

  static String orNa(JsonNode node, String field) {
    return Formats.orNotAvailable(text(node, field));
  }

  /** A resource object ({@code memory}, {@code vCores}) as {@code <memory:1024, vCores:1>}, as yarn prints it. */
  static String resource(JsonNode r) {
    if (!r.isObject()) return Formats.NOT_AVAILABLE;
    return "<memory:" + r.path("memory").asLong() + ", vCores:" + r.path("vCores").asLong() + ">";
  }

  /** A report of labelled fields, as {@code yarn ... -status} prints one. */
  void field(String label, String value) {
    out.println("\t" + label + " : " + Formats.oneLine(value));
  }

  /** Every scalar field of {@code node} and its resource objects, for reports whose fields vary (queues). */
  void scalarFields(JsonNode node) {
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode v = e.getValue();
      if (v.isValueNode()) field(e.getKey(), v.isNull() ? "" : v.asText());
      else if (v.isObject() && v.has("memory")) field(e.getKey(), resource(v));
    }
  }
}
