package dev.bobbin.core.policy;

import dev.bobbin.config.QueuePath;
import dev.bobbin.config.capacity.CapacityQueue;
import dev.bobbin.config.capacity.CapacitySchedulerConfig;
import dev.bobbin.config.fair.FairQueueConfig;
import dev.bobbin.config.fair.FairSchedulerConfig;
import dev.bobbin.config.security.AccessControlList;
import dev.bobbin.config.security.Caller;
import java.util.HashMap;
import java.util.Map;

/**
 * The queues' ACLs (Fair's {@code aclSubmitApps} and {@code aclAdministerApps}, Capacity's
 * {@code acl_submit_applications} and {@code acl_administer_queue}) with Hadoop's inheritance: a
 * caller allowed on a queue is allowed on every queue below it, a queue that sets no ACL allows no
 * one of its own, and the root allows everyone unless it says otherwise. Whoever may administer a
 * queue may also submit to it. Queues placement creates have no ACLs of their own.
 */
public final class QueueAcls {
  /** The ACLs the configuration sets, by queue. */
  private record Acls(AccessControlList submit, AccessControlList administer) {}

  /**
   * Queues that cannot be configured with ACLs (FIFO's): everyone may submit, and no one but the
   * cluster's administrators administers their applications, so that with ACLs on one user's
   * applications are safe from another.
   */
  public static final QueueAcls SUBMIT_ONLY = new QueueAcls(Map.of(QueuePath.ROOT,
      new Acls(AccessControlList.EVERYONE, AccessControlList.NO_ONE)));

  private final Map<QueuePath, Acls> configured;

  private QueueAcls(Map<QueuePath, Acls> configured) {
    this.configured = Map.copyOf(configured);
  }

  /** The ACLs of the Fair configuration's queues. */
  public static QueueAcls of(FairSchedulerConfig config) {
    Map<QueuePath, Acls> out = new HashMap<>();
    for (FairQueueConfig q : config.queues().values()) {
      if (q.aclSubmitApps() == null && q.aclAdministerApps() == null) continue;
      out.put(QueuePath.of(q.path()), new Acls(parse(q.aclSubmitApps()), parse(q.aclAdministerApps())));
    }
    return new QueueAcls(out);
  }

  /** The ACLs of the Capacity configuration's queues, which the importer gives every queue. */
  public static QueueAcls of(CapacitySchedulerConfig config) {
    Map<QueuePath, Acls> out = new HashMap<>();
    for (CapacityQueue q : config.queues().values()) {
      out.put(q.path(), new Acls(q.aclSubmitApplications(), q.aclAdministerQueue()));
    }
    return new QueueAcls(out);
  }

  private static AccessControlList parse(String acl) {
    return acl == null ? null : AccessControlList.parse(acl);
  }

  /** Whether the caller may submit to {@code queue}: submit or administer rights on it or above it. */
  public boolean canSubmit(QueuePath queue, Caller caller) {
    return allowed(queue, caller, false) || allowed(queue, caller, true);
  }

  /** Whether the caller administers {@code queue}: the applications in it are theirs to view and modify. */
  public boolean canAdminister(QueuePath queue, Caller caller) {
    return allowed(queue, caller, true);
  }

  private boolean allowed(QueuePath queue, Caller caller, boolean administer) {
    for (QueuePath q = queue; q != null; q = q.parent()) {
      if (acl(q, administer).allows(caller)) return true;
    }
    return false;
  }

  private AccessControlList acl(QueuePath q, boolean administer) {
    Acls set = configured.get(q);
    AccessControlList own = set == null ? null : administer ? set.administer() : set.submit();
    if (own != null) return own;
    return q.isRoot() ? AccessControlList.EVERYONE : AccessControlList.NO_ONE;
  }
}
