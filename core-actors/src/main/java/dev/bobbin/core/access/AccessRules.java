package dev.bobbin.core.access;

import dev.bobbin.config.QueuePath;
import dev.bobbin.config.security.AccessControlList;
import dev.bobbin.config.security.Caller;
import dev.bobbin.core.app.AppReport;
import dev.bobbin.core.app.ApplicationAccessType;
import dev.bobbin.core.policy.QueueAcls;

/**
 * YARN's authorization decisions, as pure functions of the caller and what they ask about. With
 * ACLs off ({@code yarn.acl.enable} false) everyone may do everything. With them on: the
 * administrators ({@code yarn.admin.acl}) may administer the cluster and view and modify every
 * application; submitting needs the queue's submit or administer rights ({@link QueueAcls}); an
 * application may be viewed or modified by its owner, an administrator, an administrator of its
 * queue, and whoever its own ACL of that type names (Hadoop's {@code ApplicationACLsManager} and
 * {@code QueueACLsManager}).
 *
 * @param admins the administrators, the daemon's own user included
 */
public record AccessRules(boolean aclEnabled, AccessControlList admins) {
  /** ACLs off: what a cluster without security allows. */
  public static final AccessRules OFF = new AccessRules(false, AccessControlList.EVERYONE);

  public boolean isAdmin(Caller caller) {
    return !aclEnabled || admins.allows(caller);
  }

  public boolean canSubmit(Caller caller, QueueAcls queues, QueuePath queue) {
    return !aclEnabled || queues.canSubmit(queue, caller);
  }

  public boolean canView(Caller caller, AppReport app, QueueAcls queues) {
    return allowed(caller, app, queues, ApplicationAccessType.VIEW_APP);
  }

  public boolean canModify(Caller caller, AppReport app, QueueAcls queues) {
    return allowed(caller, app, queues, ApplicationAccessType.MODIFY_APP);
  }

  private boolean allowed(Caller caller, AppReport app, QueueAcls queues, ApplicationAccessType type) {
    if (!aclEnabled || caller.user().equals(app.user()) || admins.allows(caller)) return true;
    String acl = app.acls().get(type);
    if (acl != null && AccessControlList.parse(acl).allows(caller)) return true;
    return queues.canAdminister(QueuePath.of(app.queue()), caller);
  }
}
