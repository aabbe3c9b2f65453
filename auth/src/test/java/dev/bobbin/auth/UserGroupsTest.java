package dev.bobbin.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.config.security.GroupsSettings;
import dev.bobbin.config.security.GroupsSource;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

class UserGroupsTest {
  private final TestingClock clock = new TestingClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final Map<String, List<String>> host = new ConcurrentHashMap<>(Map.of("alice", List.of("alice", "eng")));
  private final ConcurrentLinkedQueue<String> lookups = new ConcurrentLinkedQueue<>();

  private UserGroups groups(GroupsSource source, Executor executor) {
    GroupsSettings s = new GroupsSettings(source, Duration.ofSeconds(300), Duration.ofSeconds(30),
        Map.of("dr.who", List.of(), "ops-bot", List.of("ops")));
    return new UserGroups(s, user -> {
      lookups.add(user);
      return host.getOrDefault(user, List.of());
    }, executor, clock);
  }

  private static List<String> now(UserGroups g, Identity who) {
    return g.groupsOf(who).toCompletableFuture().join();
  }

  @Test
  void theHostsGroupsAreKeptForTheirTimeToLive() {
    UserGroups g = groups(GroupsSource.SHELL, Runnable::run);
    assertThat(now(g, Identity.of("alice"))).containsExactly("alice", "eng");
    host.put("alice", List.of("alice", "eng", "ops"));
    assertThat(now(g, Identity.of("alice"))).as("cached").containsExactly("alice", "eng");
    clock.advance(Duration.ofSeconds(300));
    assertThat(now(g, Identity.of("alice"))).containsExactly("alice", "eng", "ops");
    assertThat(lookups).containsExactly("alice", "alice");
  }

  @Test
  void aUserWithoutGroupsIsAskedAgainSooner() {
    UserGroups g = groups(GroupsSource.SHELL, Runnable::run);
    assertThat(now(g, Identity.of("bob"))).isEmpty();
    host.put("bob", List.of("bob"));
    clock.advance(Duration.ofSeconds(29));
    assertThat(now(g, Identity.of("bob"))).isEmpty();
    clock.advance(Duration.ofSeconds(1));
    assertThat(now(g, Identity.of("bob"))).containsExactly("bob");
  }

  @Test
  void aRefreshForgetsEveryUser() {
    UserGroups g = groups(GroupsSource.SHELL, Runnable::run);
    now(g, Identity.of("alice"));
    host.put("alice", List.of("alice", "admins"));
    g.refresh();
    assertThat(now(g, Identity.of("alice"))).containsExactly("alice", "admins");
  }

  @Test
  void concurrentRequestsShareOneLookup() {
    CompletableFuture<Runnable> held = new CompletableFuture<>();
    UserGroups g = groups(GroupsSource.SHELL, held::complete);
    CompletableFuture<List<String>> first = g.groupsOf(Identity.of("alice")).toCompletableFuture();
    CompletableFuture<List<String>> second = g.groupsOf(Identity.of("alice")).toCompletableFuture();
    assertThat(first).isNotDone();
    held.join().run();
    assertThat(first.join()).isEqualTo(second.join()).containsExactly("alice", "eng");
    assertThat(lookups).containsExactly("alice");
  }

  @Test
  void theStaticMappingComesFirstWhateverTheSource() {
    for (GroupsSource source : GroupsSource.values()) {
      UserGroups g = groups(source, Runnable::run);
      assertThat(now(g, new Identity("ops-bot", List.of("eng")))).as(source.name()).containsExactly("ops");
      assertThat(now(g, Identity.of("dr.who"))).as(source.name()).isEmpty();
    }
    assertThat(lookups).isEmpty();
  }

  @Test
  void theTokenSourceReadsTheCallersClaimAndTheStaticOneKnowsNoOneElse() {
    UserGroups token = groups(GroupsSource.TOKEN, Runnable::run);
    assertThat(now(token, new Identity("alice", List.of("data")))).containsExactly("data");
    assertThat(now(token, Identity.of("alice"))).isEmpty();
    assertThat(now(groups(GroupsSource.STATIC, Runnable::run), Identity.of("alice"))).isEmpty();
    assertThat(lookups).isEmpty();
  }

  @Test
  void theHostKnowsTheUserThisRunsAs() {
    String me = System.getProperty("user.name");
    assertThat(ShellGroups.lookup(me)).isNotEmpty();
    assertThat(ShellGroups.lookup("no-such-user-" + System.nanoTime())).isEmpty();
    assertThat(ShellGroups.lookup("-a")).isEmpty();
  }
}
