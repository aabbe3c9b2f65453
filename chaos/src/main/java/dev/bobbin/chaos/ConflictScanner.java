package dev.bobbin.chaos;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds, in a member's log, entities whose write the journal refused with a duplicate key: Pekko
 * logs the persist failure ("Failed to persist event type [...] with sequence number [N] for
 * persistenceId [ID]") with the database's error in the stack trace that follows, and stops the
 * entity. Such a conflict means another writer had written that sequence number first.
 */
final class ConflictScanner {
  /** One refused write. */
  record Conflict(String member, String persistenceId, long sequenceNr, String loggedAt) {}

  /** A log entry starts with the RM's time stamp ({@code HH:mm:ss.SSS}); stack traces continue it. */
  private static final Pattern ENTRY_START = Pattern.compile("^(\\d{2}:\\d{2}:\\d{2}\\.\\d{3}) .*|^=== chaos: .*");
  private static final Pattern PERSIST_FAILURE = Pattern.compile(
      "Failed to persist event type \\[[^\\]]*\\] with sequence number \\[(\\d+)\\] for persistenceId \\[([^\\]]+)\\]");
  private static final List<String> DUPLICATE_KEY = List.of("duplicate key value violates unique constraint",
      "SQLState: 23505", "SQLSTATE(23505)");

  private ConflictScanner() {}

  static List<Conflict> scan(String member, Path log) throws IOException {
    if (!Files.exists(log)) return List.of();
    try (Reader r = new InputStreamReader(Files.newInputStream(log), StandardCharsets.UTF_8)) {
      return scan(member, r);
    }
  }

  static List<Conflict> scan(String member, Reader log) throws IOException {
    Map<String, Conflict> out = new LinkedHashMap<>();
    BufferedReader in = new BufferedReader(log);
    StringBuilder entry = new StringBuilder();
    String at = "";
    for (String line; (line = in.readLine()) != null; ) {
      Matcher start = ENTRY_START.matcher(line);
      if (start.matches()) {
        judge(member, at, entry, out);
        entry.setLength(0);
        at = start.group(1) == null ? "" : start.group(1);
      }
      // A stack trace can be long; the failure's first lines and its causes are what matter.
      if (entry.length() < 64 * 1024) entry.append(line).append('\n');
    }
    judge(member, at, entry, out);
    return new ArrayList<>(out.values());
  }

  private static void judge(String member, String at, StringBuilder entry, Map<String, Conflict> out) {
    Matcher m = PERSIST_FAILURE.matcher(entry);
    if (!m.find()) return;
    String text = entry.toString();
    if (DUPLICATE_KEY.stream().noneMatch(text::contains)) return;
    // Pekko may log one failure twice (the failure, then the supervisor stopping the entity).
    out.putIfAbsent(m.group(2) + "#" + m.group(1), new Conflict(member, m.group(2), Long.parseLong(m.group(1)), at));
  }
}
