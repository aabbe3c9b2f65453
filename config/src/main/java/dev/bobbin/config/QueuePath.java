package dev.bobbin.config;

import java.util.Objects;

/**
 * A queue's full dotted path from the root, {@code root.a.b}. Submissions, reports and the FIFO
 * queue list may name a queue with or without the leading {@code root.}; this is the one place that
 * tells the two forms apart.
 *
 * @param full the path with its root, e.g. {@code root.default}
 */
public record QueuePath(String full) {
  public static final String ROOT_NAME = "root";
  public static final QueuePath ROOT = new QueuePath(ROOT_NAME);
  /** Where an application goes that names no queue. */
  public static final QueuePath DEFAULT = new QueuePath(ROOT_NAME + ".default");

  public QueuePath {
    Objects.requireNonNull(full, "full");
    if (!full.equals(ROOT_NAME) && !full.startsWith(ROOT_NAME + ".")) {
      throw new IllegalArgumentException("a full queue path starts with root: " + full);
    }
  }

  /** {@code a.b} and {@code root.a.b} name the same queue. */
  public static QueuePath of(String name) {
    Objects.requireNonNull(name, "name");
    if (name.equals(ROOT_NAME) || name.startsWith(ROOT_NAME + ".")) return new QueuePath(name);
    return new QueuePath(ROOT_NAME + "." + name);
  }

  /** The queue a submission asked for; none, or a blank name, means {@link #DEFAULT}. */
  public static QueuePath requested(String name) {
    return name == null || name.isBlank() ? DEFAULT : of(name);
  }

  /** The path below the root, as submissions and application reports carry it: {@code a.b}. */
  public String relative() {
    return isRoot() ? ROOT_NAME : full.substring(ROOT_NAME.length() + 1);
  }

  /** The last part of the path. */
  public String name() {
    return full.substring(full.lastIndexOf('.') + 1);
  }

  public boolean isRoot() {
    return full.equals(ROOT_NAME);
  }

  /** The queue above this one; null for the root. */
  public QueuePath parent() {
    return isRoot() ? null : new QueuePath(full.substring(0, full.lastIndexOf('.')));
  }

  public QueuePath child(String name) {
    return new QueuePath(full + "." + name);
  }

  @Override
  public String toString() {
    return full;
  }
}
