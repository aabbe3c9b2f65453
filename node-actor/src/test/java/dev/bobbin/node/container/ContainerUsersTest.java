package dev.bobbin.node.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.config.ContainerExecutorSettings;
import dev.bobbin.config.ContainerExecutorSettings.Kind;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ContainerUsersTest {
  private static final String APP = "application_1700000000000_0001";
  private static final Map<String, OsAccount> HOST = Map.of(
      "alice", new OsAccount("alice", 1001, 1001, "/home/alice"),
      "root", new OsAccount("root", 0, 0, "/root"),
      "yarn", new OsAccount("yarn", 1500, 1500, "/home/yarn"),
      "daemon", new OsAccount("daemon", 1, 1, "/usr/sbin"),
      "nobody", new OsAccount("nobody", 65534, 65534, "/nonexistent"));

  private static ContainerUsers users(Set<String> banned, int minUid, Set<String> allowed) {
    return new ContainerUsers(new ContainerExecutorSettings(Kind.LINUX, banned, minUid, allowed),
        name -> Optional.ofNullable(HOST.get(name)));
  }

  private static final ContainerUsers YARN_DEFAULTS =
      users(Set.of("root", "yarn", "hdfs", "mapred", "bin"), 1000, Set.of());

  @Test
  void anOrdinaryUserRunsAsItsAccount() throws IOException {
    assertThat(YARN_DEFAULTS.admit("alice", APP)).isEqualTo(HOST.get("alice"));
    assertThat(YARN_DEFAULTS.admit("nobody", APP).uid()).isEqualTo(65534);
  }

  @Test
  void bannedUsersAreRefusedAsContainerExecutorDoes() {
    assertThatThrownBy(() -> YARN_DEFAULTS.admit("yarn", APP))
        .isInstanceOf(ContainerLaunchRefused.class)
        .hasMessage("Application " + APP + " initialization failed (exitCode=255) with output: "
            + "Requested user yarn is banned");
  }

  @Test
  void systemUsersBelowMinUserIdAreRefusedUnlessAllowedByName() throws IOException {
    assertThatThrownBy(() -> YARN_DEFAULTS.admit("daemon", APP))
        .isInstanceOf(ContainerLaunchRefused.class)
        .hasMessageEndingWith("Requested user daemon is not whitelisted and has id 1, which is below the minimum allowed 1000");
    ContainerUsers allowingDaemon = users(Set.of("yarn"), 1000, Set.of("daemon", "yarn"));
    assertThat(allowingDaemon.admit("daemon", APP).uid()).isEqualTo(1);
    // Allowing a user by name does not lift a ban.
    assertThatThrownBy(() -> allowingDaemon.admit("yarn", APP)).hasMessageEndingWith("Requested user yarn is banned");
  }

  @Test
  void rootIsRefusedWhateverTheRules() {
    ContainerUsers permissive = new ContainerUsers(new ContainerExecutorSettings(Kind.LINUX, Set.of(), 0, Set.of("root")),
        name -> Optional.of(new OsAccount(name, 0, 0, "/root")));
    assertThatThrownBy(() -> permissive.admit("root", APP))
        .isInstanceOf(ContainerLaunchRefused.class).hasMessageEndingWith("Running as root is not allowed");
    assertThatThrownBy(() -> permissive.admit("toor", APP)).hasMessageEndingWith("Running as root is not allowed");
    assertThatThrownBy(() -> YARN_DEFAULTS.admit("root", APP)).hasMessageEndingWith("Running as root is not allowed");
  }

  @Test
  void unknownAndMalformedUsersAreRefusedWithTheirReason() {
    assertThatThrownBy(() -> YARN_DEFAULTS.admit("mallory", APP))
        .isInstanceOf(ContainerLaunchRefused.class)
        .hasMessageContaining(APP).hasMessageEndingWith("User mallory not found on this node");
    for (String bad : new String[] {"-u0", "a b", "../root", ""}) {
      assertThatThrownBy(() -> YARN_DEFAULTS.admit(bad, APP))
          .as(bad).isInstanceOf(ContainerLaunchRefused.class).hasMessageContaining("Invalid user name '" + bad + "'");
    }
  }

  @Test
  void passwdLinesAreRead() throws IOException {
    assertThat(OsAccount.parse("alice:x:1001:100:Alice A,,,:/home/alice:/bin/bash"))
        .isEqualTo(new OsAccount("alice", 1001, 100, "/home/alice"));
    assertThatThrownBy(() -> OsAccount.parse("alice:x:one:100::/home/alice:/bin/sh")).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> OsAccount.parse("")).isInstanceOf(IOException.class);
  }

  @Test
  void theHostsOwnAccountsAreFound() throws IOException {
    assertThat(OsAccount.lookup("root")).get().returns(0, OsAccount::uid);
    assertThat(OsAccount.lookup("bobbin-no-such-user-anywhere")).isEmpty();
  }
}
