package dev.bobbin.config.security;

import java.util.List;
import java.util.Objects;

/**
 * Who makes a request, as the cluster's access control sees it: the authenticated user and the
 * groups the group mapping gives that user, the primary group first.
 */
public record Caller(String user, List<String> groups) {
  public Caller {
    Objects.requireNonNull(user, "user");
    groups = groups == null ? List.of() : List.copyOf(groups);
  }
}
