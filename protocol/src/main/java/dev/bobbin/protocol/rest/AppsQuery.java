package dev.bobbin.protocol.rest;

import dev.bobbin.protocol.FinalApplicationStatus;
import dev.bobbin.protocol.YarnApplicationState;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The filters of {@code GET /ws/v1/cluster/apps}; null (or empty) leaves a filter out.
 *
 * @param limit the most applications to list, or null for all
 */
public record AppsQuery(
    Set<YarnApplicationState> states,
    FinalApplicationStatus finalStatus,
    String user,
    String queue,
    String name,
    Set<String> applicationTypes,
    Set<String> applicationTags,
    Long limit) {
  public AppsQuery {
    states = states == null ? Set.of() : Set.copyOf(states);
    applicationTypes = applicationTypes == null ? Set.of() : Set.copyOf(applicationTypes);
    applicationTags = applicationTags == null ? Set.of() : Set.copyOf(applicationTags);
  }

  public static AppsQuery all() {
    return new AppsQuery(null, null, null, null, null, null, null, null);
  }

  public AppsQuery withStates(Set<YarnApplicationState> s) {
    return new AppsQuery(s, finalStatus, user, queue, name, applicationTypes, applicationTags, limit);
  }

  public AppsQuery withUser(String u) {
    return new AppsQuery(states, finalStatus, u, queue, name, applicationTypes, applicationTags, limit);
  }

  public AppsQuery withQueue(String q) {
    return new AppsQuery(states, finalStatus, user, q, name, applicationTypes, applicationTags, limit);
  }

  public AppsQuery withLimit(long l) {
    return new AppsQuery(states, finalStatus, user, queue, name, applicationTypes, applicationTags, l);
  }

  /** As query parameters, in YARN's names. */
  public Map<String, String> parameters() {
    Map<String, String> q = new LinkedHashMap<>();
    q.put("states", states.stream().map(Enum::name).sorted().collect(Collectors.joining(",")));
    q.put("finalStatus", finalStatus == null ? null : finalStatus.name());
    q.put("user", user);
    q.put("queue", queue);
    q.put("name", name);
    q.put("applicationTypes", String.join(",", new TreeSet<>(applicationTypes)));
    q.put("applicationTags", String.join(",", new TreeSet<>(applicationTags)));
    q.put("limit", limit == null ? null : Long.toString(limit));
    return q;
  }
}
