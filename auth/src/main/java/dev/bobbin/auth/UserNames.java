package dev.bobbin.auth;

import java.util.regex.Pattern;

/**
 * The user names a caller may have: Hadoop's default user name pattern, widened to the names
 * identity providers hand out (digits first, {@code @}). Nothing that could be read as a path, an
 * option or two names.
 */
public final class UserNames {
  private static final Pattern VALID = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._@-]{0,254}\\$?");

  private UserNames() {}

  /** @return why {@code name} is not a user name, or null when it is one */
  public static String problem(String name) {
    if (name == null || name.isEmpty()) return "the user name is empty";
    if (!VALID.matcher(name).matches()) {
      return "'" + printable(name) + "' is not a user name (letters, digits and . _ @ -, at most 255)";
    }
    return null;
  }

  /** The name with control characters and anything past 64 characters left out, for messages and logs. */
  static String printable(String name) {
    String s = name.length() > 64 ? name.substring(0, 64) + "..." : name;
    return s.replaceAll("\\p{Cntrl}", "?");
  }
}
