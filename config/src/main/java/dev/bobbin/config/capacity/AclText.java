package dev.bobbin.config.capacity;

import dev.bobbin.config.SettingsException;
import dev.bobbin.config.security.AccessControlList;

/**
 * Reads a queue ACL in Hadoop's form: users, one space, groups, each a comma list; {@code *} for
 * everyone; a single space for no one. A name with white space inside cannot match anyone, and is
 * almost always a second space where a comma was meant, so it is refused.
 */
final class AclText {
  private AclText() {}

  static AccessControlList parse(String key, String text) {
    String[] parts = text.split(" ", 2);
    for (String part : parts) {
      for (String name : part.split(",")) {
        String n = name.trim();
        if (!n.isEmpty() && n.chars().anyMatch(Character::isWhitespace)) {
          throw new SettingsException(
              key, "'" + n + "' in '" + text + "' is not a user or group name; an ACL is users, one space, then groups,"
                  + " each separated by commas, e.g. 'alice,bob admins,ops'");
        }
      }
    }
    return AccessControlList.parse(text);
  }
}
