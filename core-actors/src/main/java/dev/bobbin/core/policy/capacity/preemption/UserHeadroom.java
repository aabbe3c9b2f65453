package dev.bobbin.core.policy.capacity.preemption;

import dev.bobbin.core.policy.capacity.CapacityTree;
import dev.bobbin.core.policy.capacity.ResourceMath;
import dev.bobbin.core.policy.capacity.UserLimits;
import dev.bobbin.protocol.Resource;
import java.util.Map;

/**
 * How much more each user of a leaf may be given under its user limit. Preemption counts a leaf's
 * pending demand only up to it, as Hadoop's {@code getTotalPendingResourcesConsideringUserLimit}
 * does: a user already at its limit cannot use what preemption would free.
 */
@FunctionalInterface
public interface UserHeadroom {
  /** No user limits: every ask counts. */
  UserHeadroom UNLIMITED = (leaf, user) -> null;

  /** What {@code user} may still be given in {@code leafPath}, or null when nothing limits it. */
  Resource of(String leafPath, String user);

  /**
   * From each leaf's user limits computed for active users ({@link UserLimits.Mode#ACTIVE_USERS}):
   * the user's limit less what it uses, each amount at least 0. A leaf without a result is not limited.
   */
  static UserHeadroom from(CapacityTree tree, Map<String, UserLimits.Result> limitsByLeaf) {
    return (leaf, user) -> {
      UserLimits.Result result = limitsByLeaf.get(leaf);
      if (result == null) return null;
      UserLimits.UserLimit known = result.users().get(user);
      Resource used = known == null ? Resource.NONE : known.used();
      return ResourceMath.subtractNonNegative(UserLimits.limitFor(tree, result, user), used);
    };
  }
}
