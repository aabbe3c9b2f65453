package dev.bobbin.http;

import dev.bobbin.core.base.Rejection;
import dev.bobbin.core.app.AppReport;
import dev.bobbin.core.app.SubmissionRules;
import dev.bobbin.protocol.FinalApplicationStatus;
import dev.bobbin.protocol.YarnApplicationState;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The query filters of {@code GET /ws/v1/cluster/apps}, validated as YARN validates them. The list
 * parameters ({@code states}, {@code applicationTypes}, {@code applicationTags}) may be repeated and
 * each value may be a comma list: every value counts. Any other parameter given twice is refused.
 */
record AppFilter(Predicate<AppReport> test, long limit) {
  private static final Set<String> LISTS = Set.of("state", "states", "applicationTypes", "applicationTags");

  static AppFilter parse(Map<String, List<String>> query) {
    Map<String, String> q = new java.util.HashMap<>();
    query.forEach((key, values) -> {
      if (values.size() > 1 && !LISTS.contains(key)) {
        throw Rejection.badRequest("The query parameter " + key + " is given " + values.size() + " times; it takes one value");
      }
      q.put(key, String.join(",", values));
    });
    Predicate<AppReport> p = r -> true;
    Set<YarnApplicationState> states = EnumSet.noneOf(YarnApplicationState.class);
    for (String key : List.of("state", "states")) {
      String v = q.get(key);
      if (v == null) continue;
      for (String s : v.split(",")) {
        if (s.isBlank()) continue;
        try {
          states.add(YarnApplicationState.valueOf(s.trim().toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
          throw Rejection.badRequest("Invalid application-state " + s.trim() + " specified. It should be one of "
              + Arrays.toString(YarnApplicationState.values()));
        }
      }
    }
    if (!states.isEmpty()) p = p.and(r -> states.contains(r.state().toYarn()));
    String fin = q.get("finalStatus");
    if (fin != null) {
      FinalApplicationStatus f;
      try {
        f = FinalApplicationStatus.valueOf(fin);
      } catch (IllegalArgumentException e) {
        throw Rejection.badRequest("Invalid finalStatus " + fin + ". It should be one of "
            + Arrays.toString(FinalApplicationStatus.values()));
      }
      p = p.and(r -> r.finalStatus() == f);
    }
    String user = q.get("user");
    if (user != null) p = p.and(r -> r.user().equals(user));
    String queue = q.get("queue");
    if (queue != null) {
      String nq = SubmissionRules.normalizeQueue(queue);
      p = p.and(r -> r.queue().equals(nq));
    }
    String name = q.get("name");
    if (name != null) p = p.and(r -> r.name().equals(name));
    String types = q.get("applicationTypes");
    if (types != null) {
      Set<String> t = Arrays.stream(types.split(",")).map(s -> s.trim().toLowerCase(Locale.ROOT))
          .filter(s -> !s.isEmpty()).collect(Collectors.toSet());
      if (!t.isEmpty()) p = p.and(r -> t.contains(r.applicationType().toLowerCase(Locale.ROOT)));
    }
    String tags = q.get("applicationTags");
    if (tags != null) {
      Set<String> t = Arrays.stream(tags.split(",")).map(s -> s.trim().toLowerCase(Locale.ROOT))
          .filter(s -> !s.isEmpty()).collect(Collectors.toSet());
      if (!t.isEmpty()) p = p.and(r -> r.tags().stream().anyMatch(t::contains));
    }
    long sb = number(q, "startedTimeBegin", 0);
    long se = number(q, "startedTimeEnd", Long.MAX_VALUE);
    long fb = number(q, "finishedTimeBegin", 0);
    long fe = number(q, "finishedTimeEnd", Long.MAX_VALUE);
    if (sb < 0) throw Rejection.badRequest("startedTimeBegin must be greater than 0");
    if (se < sb) throw Rejection.badRequest("startedTimeEnd must be greater than startTimeBegin");
    if (fb < 0) throw Rejection.badRequest("finishTimeBegin must be greater than 0");
    if (fe < fb) throw Rejection.badRequest("finishTimeEnd must be greater than finishTimeBegin");
    p = p.and(r -> r.startedTime() >= sb && r.startedTime() <= se);
    if (q.containsKey("finishedTimeBegin") || q.containsKey("finishedTimeEnd")) {
      p = p.and(r -> r.finishedTime() >= fb && r.finishedTime() <= fe);
    }
    long limit = number(q, "limit", Long.MAX_VALUE);
    if (limit <= 0) throw Rejection.badRequest("limit value must be greater then 0");
    return new AppFilter(p, limit);
  }

  private static long number(Map<String, String> q, String key, long dflt) {
    String v = q.get(key);
    if (v == null) return dflt;
    try {
      return Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      throw Rejection.badRequest(key + " must be a number, was '" + v + "'");
    }
  }
}
