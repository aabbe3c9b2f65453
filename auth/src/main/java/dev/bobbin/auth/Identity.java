package dev.bobbin.auth;

import java.util.List;
import java.util.Objects;

/**
 * A user as an authenticator established it.
 *
 * @param claimedGroups the groups the caller's credential itself lists (a token's groups claim),
 *     or null when it lists none
 */
public record Identity(String user, List<String> claimedGroups) {
  public Identity {
    Objects.requireNonNull(user, "user");
    claimedGroups = claimedGroups == null ? null : List.copyOf(claimedGroups);
  }

  public static Identity of(String user) {
    return new Identity(user, null);
  }
}
