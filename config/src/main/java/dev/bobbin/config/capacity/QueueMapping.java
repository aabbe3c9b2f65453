package dev.bobbin.config.capacity;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One rule of {@code yarn.scheduler.capacity.queue-mappings} ({@code u:name:queue},
 * {@code g:group:queue}) or of {@code yarn.scheduler.queue-placement-rules.app-name}
 * ({@code appName:queue}), in Hadoop's legacy syntax. Rules are tried in order and the first that
 * gives an existing queue wins. The queue may be a leaf's short name, a full path, or a path with
 * variables: {@code %user}, {@code %primary_group}, {@code %secondary_group} (the user's first group
 * that names an existing queue), {@code %application}, {@code %specified} (the queue the submission
 * asked for) and {@code %default}, each standing for a whole path part
 * ({@code root.users.%user}, {@code %primary_group.%user}).
 *
 * @param type what the source is matched against
 * @param source a user name or {@code %user} (every user), a group name, or an application name
 *     or {@code %application} (every application)
 * @param queue where a matching submission goes
 */
public record QueueMapping(Type type, String source, String queue) {
  /** The variables a queue path part may be, as Hadoop's placement knows them. */
  public static final Set<String> VARIABLES =
      Set.of("%user", "%primary_group", "%secondary_group", "%application", "%specified", "%default");

  public enum Type {
    USER("u"),
    GROUP("g"),
    APPLICATION("a");

    private final String prefix;

    Type(String prefix) {
      this.prefix = prefix;
    }

    public String prefix() {
      return prefix;
    }
  }

  public QueueMapping {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(queue, "queue");
  }

  /** Whether the rule applies to every submission of its type ({@code u:%user:...}, {@code %application:...}). */
  public boolean matchesAll() {
    return (type == Type.USER && source.equals("%user")) || (type == Type.APPLICATION && source.equals("%application"));
  }

  /** The queue path's parts, e.g. [root, users, %user]. */
  public List<String> queueParts() {
    return List.of(queue.split("\\."));
  }

  /** Whether no part of the queue path is a variable. */
  public boolean isStatic() {
    return queueParts().stream().noneMatch(VARIABLES::contains);
  }

  /** The rule as Hadoop writes it. */
  @Override
  public String toString() {
    return (type == Type.APPLICATION ? "" : type.prefix + ":") + source + ":" + queue;
  }
}
