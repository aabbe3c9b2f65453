package dev.bobbin.config.fair;

import dev.bobbin.config.QueuePath;

/** Queue path rules shared by the parsers and placement, as Hadoop's FairScheduler applies them. */
final class QueueNames {
  static final String ROOT = QueuePath.ROOT_NAME;

  private QueueNames() {}

  /** "a.b" and "root.a.b" name the same queue; this returns the second form. */
  static String assureRoot(String name) {
    return QueuePath.of(name).full();
  }

  /** User and group names become one path segment: trimmed, and every '.' turned into "_dot_". */
  static String clean(String name) {
    return name.trim().replace(".", "_dot_");
  }

  static String parentOf(String path) {
    int dot = path.lastIndexOf('.');
    return dot < 0 ? null : path.substring(0, dot);
  }

  static String lastSegment(String path) {
    return path.substring(path.lastIndexOf('.') + 1);
  }

  /** Why a full path cannot name a queue, or null when it can. */
  static String problemWithPath(String path) {
    if (path.isEmpty()) return "queue name is empty";
    if (path.startsWith(".") || path.endsWith(".")) {
      return "queue name '" + path + "' must not start or end with '.'";
    }
    for (String part : path.split("\\.", -1)) {
      if (part.isEmpty()) return "queue name '" + path + "' has an empty part";
      if (!part.equals(part.trim())) {
        return "queue name '" + path + "' has a part with leading or trailing spaces";
      }
    }
    return null;
  }
}
