package dev.bobbin.config.fair;

import dev.bobbin.config.SettingsException;
import java.util.Locale;
import java.util.Objects;

/**
 * One rule of a queue placement policy, as Hadoop 3's FairScheduler reads
 * {@code <rule name=".." create=".." queue="..">}.
 *
 * @param create whether the rule may place into a queue that does not exist yet; when false it
 *     only matches queues declared in the configuration
 * @param queue for {@link Kind#DEFAULT} only: the full path it places into (root.default unless set)
 * @param parent a rule giving the parent queue to place under, instead of root; required by
 *     {@link Kind#NESTED_USER_QUEUE}
 */
public record PlacementRule(Kind kind, boolean create, String queue, PlacementRule parent) {

  public enum Kind {
    SPECIFIED("specified"),
    USER("user"),
    PRIMARY_GROUP("primaryGroup"),
    SECONDARY_GROUP_EXISTING_QUEUE("secondaryGroupExistingQueue"),
    NESTED_USER_QUEUE("nestedUserQueue"),
    DEFAULT("default"),
    REJECT("reject");

    private final String hadoopName;

    Kind(String hadoopName) {
      this.hadoopName = hadoopName;
    }

    public String hadoopName() {
      return hadoopName;
    }

    /** Hadoop's names; case and '-' are ignored, so "primary-group" works too. */
    public static Kind parse(String key, String value) {
      String v = value.trim().replace("-", "").toLowerCase(Locale.ROOT);
      for (Kind k : values()) {
        if (k.hadoopName.toLowerCase(Locale.ROOT).equals(v)) return k;
      }
      throw new SettingsException(
          key,
          "unknown placement rule '" + value + "' (known: specified, user, primaryGroup, "
              + "secondaryGroupExistingQueue, nestedUserQueue, default, reject)");
    }
  }

  public static final String DEFAULT_QUEUE = "root.default";

  public PlacementRule {
    Objects.requireNonNull(kind, "kind");
    if (kind == Kind.DEFAULT) {
      queue = queue == null ? DEFAULT_QUEUE : QueueNames.assureRoot(queue);
    } else if (queue != null) {
      throw new IllegalArgumentException("only the default rule takes a queue");
    }
  }

  public static PlacementRule of(Kind kind, boolean create) {
    return new PlacementRule(kind, create, null, null);
  }

  /**
   * Whether the rule never passes an application on to the next rule. With a parent rule, both
   * must be terminal.
   */
  public boolean terminal() {
    boolean self =
        switch (kind) {
          case REJECT -> true;
          case SPECIFIED, SECONDARY_GROUP_EXISTING_QUEUE -> false;
          default -> create;
        };
    return parent == null ? self : self && parent.terminal();
  }

  /** Hadoop's restrictions on parent rules, reported against the rule's key. */
  void check(String key, String parentKey) {
    if (parent == null) {
      if (kind == Kind.NESTED_USER_QUEUE) {
        throw new SettingsException(key, "nestedUserQueue needs a nested rule that gives the parent queue");
      }
      return;
    }
    if (kind == Kind.SPECIFIED || kind == Kind.DEFAULT || kind == Kind.REJECT) {
      throw new SettingsException(key, "the " + kind.hadoopName + " rule takes no parent rule");
    }
    if (parent.kind == Kind.REJECT || parent.kind == Kind.NESTED_USER_QUEUE) {
      throw new SettingsException(parentKey, parent.kind.hadoopName + " cannot be a parent rule");
    }
    if (parent.kind == kind) {
      throw new SettingsException(parentKey, "a parent rule may not be of the same kind as its child (" + kind.hadoopName + ")");
    }
    if (parent.parent != null) {
      throw new SettingsException(parentKey, "a parent rule cannot have a parent rule of its own");
    }
  }

  /** For messages: "nestedUserQueue(primaryGroup create=false)". */
  public String describe() {
    StringBuilder s = new StringBuilder(kind.hadoopName);
    if (parent != null) s.append('(').append(parent.describe()).append(')');
    if (!create) s.append(" create=false");
    if (kind == Kind.DEFAULT) s.append(" queue=").append(queue);
    return s.toString();
  }
}
