package dev.bobbin.node.container;

import dev.bobbin.config.ContainerExecutorSettings;
import java.io.IOException;
import java.util.Optional;

/**
 * Which host account a container may run as, by the rules of YARN's container-executor: the user
 * must not be root, must exist, must not be banned, and must have a uid of at least {@code
 * min-user-id} unless it is an allowed system user. Refusals read as container-executor's, so operators recognise them.
 */
public final class ContainerUsers {
  /** container-executor's exit code when it refuses the user. */
  static final int REFUSED_EXIT_CODE = 255;
  /** Whatever the rules say: a container never runs as root, nor as another name for uid 0. */
  private static final String ROOT_REFUSED = "Running as root is not allowed";

  public interface Lookup {
    Optional<OsAccount> find(String user) throws IOException;
  }

  private final ContainerExecutorSettings rules;
  private final Lookup lookup;

  public ContainerUsers(ContainerExecutorSettings rules, Lookup lookup) {
    this.rules = rules;
    this.lookup = lookup;
  }

  /** The account the application's container runs as, or why it may not run. */
  public OsAccount admit(String user, String applicationId) throws IOException {
    if (!OsAccount.VALID_NAME.matcher(user).matches()) {
      throw refused(applicationId, "Invalid user name '" + user + "': not a name a local account can have");
    }
    if (user.equals("root")) throw refused(applicationId, ROOT_REFUSED);
    OsAccount account = lookup.find(user).orElseThrow(() ->
        refused(applicationId, "User " + user + " not found on this node"));
    if (account.uid() == 0) throw refused(applicationId, ROOT_REFUSED);
    if (account.uid() < rules.minUserId() && !rules.allowedSystemUsers().contains(user)) {
      throw refused(applicationId, "Requested user " + user + " is not whitelisted and has id " + account.uid()
          + ", which is below the minimum allowed " + rules.minUserId());
    }
    if (rules.bannedUsers().contains(user)) {
      throw refused(applicationId, "Requested user " + user + " is banned");
    }
    return account;
  }

  private static ContainerLaunchRefused refused(String applicationId, String output) {
    return new ContainerLaunchRefused("Application " + applicationId + " initialization failed (exitCode="
        + REFUSED_EXIT_CODE + ") with output: " + output);
  }
}
