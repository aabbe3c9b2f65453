package dev.bobbin.node.http;

import dev.bobbin.auth.Identity;
import dev.bobbin.config.security.AccessControlList;
import dev.bobbin.config.security.SecuritySettings;
import java.util.List;

/**
 * Who may read a container's details and logs on this NodeManager once ACLs are on
 * ({@code bobbin.security.acl-enable}): the user the container runs for, the user the NodeManager
 * runs as, and the cluster's administrators ({@code admin-acl}, by name or by the groups the caller's
 * token lists). With ACLs off, every authenticated user may.
 */
public record ContainerAccess(boolean aclEnabled, AccessControlList admins, String nodeUser) {
  public static ContainerAccess of(SecuritySettings security) {
    return new ContainerAccess(security.aclEnabled(), security.adminAcl(), System.getProperty("user.name"));
  }

  boolean mayRead(Identity caller, String containerUser) {
    if (!aclEnabled || caller.user().equals(containerUser) || caller.user().equals(nodeUser)) return true;
    List<String> groups = caller.claimedGroups() == null ? List.of() : caller.claimedGroups();
    return admins.allows(caller.user(), groups);
  }
}
