package dev.bobbin.config.fair;

import dev.bobbin.config.SettingsException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/** The ordered rules that choose a queue for a submitted application; the first to decide wins. */
public record PlacementPolicy(List<PlacementRule> rules) {

  public PlacementPolicy {
    rules = List.copyOf(rules);
    if (rules.isEmpty()) throw new IllegalArgumentException("a placement policy needs at least one rule");
  }

  /**
   * Hadoop's policy when the configuration has none, built from
   * {@code yarn.scheduler.fair.user-as-default-queue} and {@code allow-undeclared-pools}: the
   * requested queue, then the user's queue (if user-as-default-queue), then root.default (when
   * there is no user rule, or it may not create queues).
   */
  public static PlacementPolicy hadoopDefault(boolean userAsDefaultQueue, boolean allowUndeclaredPools) {
    List<PlacementRule> rules = new ArrayList<>();
    rules.add(PlacementRule.of(PlacementRule.Kind.SPECIFIED, allowUndeclaredPools));
    if (userAsDefaultQueue) rules.add(PlacementRule.of(PlacementRule.Kind.USER, allowUndeclaredPools));
    if (!userAsDefaultQueue || !allowUndeclaredPools) {
      rules.add(PlacementRule.of(PlacementRule.Kind.DEFAULT, true));
    }
    return new PlacementPolicy(rules);
  }

  /** Rules as read from a file: every rule reachable, and the last one always deciding. */
  static PlacementPolicy checked(List<PlacementRule> rules, String policyKey, IntFunction<String> ruleKey) {
    if (rules.isEmpty()) {
      throw new SettingsException(policyKey, "has no rules; leave it out to use the default policy");
    }
    for (int i = 0; i < rules.size() - 1; i++) {
      if (rules.get(i).terminal()) {
        throw new SettingsException(
            ruleKey.apply(i + 1),
            "rule " + (i + 1) + " (" + rules.get(i).describe()
                + ") always decides, so the rules after it can never be reached");
      }
    }
    PlacementRule last = rules.get(rules.size() - 1);
    if (!last.terminal()) {
      throw new SettingsException(
          policyKey,
          "the last placement rule must be terminal, but " + last.describe() + " can pass an application on;"
              + " end with default, reject, or a user, primaryGroup or nestedUserQueue rule that may create its queue");
    }
    return new PlacementPolicy(rules);
  }
}
