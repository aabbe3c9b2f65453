package dev.bobbin.config.security;

import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Hadoop's access control list ({@code org.apache.hadoop.security.authorize.AccessControlList}),
 * parsed from its string form: users, a space, groups, each a comma list ({@code "alice,bob
 * eng,ops"}); a leading space names groups only ({@code " eng"}); {@code "*"} on either side is
 * everyone; a single space, or nothing, is no one.
 *
 * @param everyone whether any caller is allowed
 * @param users the users named, when not everyone
 * @param groups the groups named, when not everyone
 */
public record AccessControlList(boolean everyone, Set<String> users, Set<String> groups) {
  public static final AccessControlList EVERYONE = new AccessControlList(true, Set.of(), Set.of());
  public static final AccessControlList NO_ONE = new AccessControlList(false, Set.of(), Set.of());

  public AccessControlList {
    users = everyone ? Set.of() : Collections.unmodifiableSet(new LinkedHashSet<>(users));
    groups = everyone ? Set.of() : Collections.unmodifiableSet(new LinkedHashSet<>(groups));
  }

  /** Reads Hadoop's string form; every string is a valid list. */
  public static AccessControlList parse(String acl) {
    if (acl == null) return NO_ONE;
    String[] parts = acl.split(" ", 2);
    for (String part : parts) {
      if (part.trim().equals("*")) return EVERYONE;
    }
    Set<String> users = names(parts[0]);
    Set<String> groups = parts.length == 2 ? names(parts[1]) : Set.of();
    return new AccessControlList(false, users, groups);
  }

  private static Set<String> names(String commaList) {
    return Arrays.stream(commaList.split(",")).map(String::trim).filter(s -> !s.isEmpty())
        .collect(Collectors.toCollection(LinkedHashSet::new));
  }

  /** Whether the caller is the named user, in a named group, or anyone is allowed. */
  public boolean allows(Caller caller) {
    return allows(caller.user(), caller.groups());
  }

  public boolean allows(String user, Collection<String> userGroups) {
    if (everyone || users.contains(user)) return true;
    for (String g : userGroups) {
      if (groups.contains(g)) return true;
    }
    return false;
  }

  /** The same list with {@code user} added, as Hadoop adds the daemon's own user to the admin list. */
  public AccessControlList withUser(String user) {
    if (everyone || users.contains(user)) return this;
    Set<String> more = new LinkedHashSet<>(users);
    more.add(user);
    return new AccessControlList(false, more, groups);
  }

  /** Hadoop's string form: {@code "*"}, or users, a space and groups. */
  @Override
  public String toString() {
    if (everyone) return "*";
    return String.join(",", users) + " " + String.join(",", groups);
  }
}
