package dev.bobbin.auth;

import dev.bobbin.config.security.GroupsSettings;
import dev.bobbin.config.security.GroupsSource;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * Hadoop's user-to-groups mapping service ({@code Groups}): the static mapping first, then the
 * configured source. Lookups on the host ({@code id -Gn}) are kept for the cache's time to live, a
 * user without groups for the shorter negative one, and run off the caller's thread; concurrent
 * requests for one user share a lookup. {@link #refresh()} forgets them all, as
 * {@code yarn rmadmin -refreshUserToGroupsMappings} does.
 */
public final class UserGroups {
  private record Cached(CompletableFuture<List<String>> groups, long bornAt) {}

  private final GroupsSettings settings;
  private final Function<String, List<String>> lookup;
  private final Executor blocking;
  private final Clock clock;
  private final ConcurrentHashMap<String, Cached> cache = new ConcurrentHashMap<>();

  /**
   * @param lookup the host's groups of a user, primary first (empty when it knows none); may block
   * @param blocking where lookups run
   */
  public UserGroups(GroupsSettings settings, Function<String, List<String>> lookup, Executor blocking, Clock clock) {
    this.settings = settings;
    this.lookup = lookup;
    this.blocking = blocking;
    this.clock = clock;
  }

  /** With {@code id -Gn} as the host's lookup. */
  public static UserGroups of(GroupsSettings settings, Executor blocking) {
    return new UserGroups(settings, ShellGroups::lookup, blocking, Clock.systemUTC());
  }

  /** The caller's groups, primary first. */
  public CompletionStage<List<String>> groupsOf(Identity caller) {
    List<String> fixed = settings.staticMapping().get(caller.user());
    if (fixed != null) return CompletableFuture.completedFuture(fixed);
    if (settings.source() == GroupsSource.STATIC) return CompletableFuture.completedFuture(List.of());
    if (settings.source() == GroupsSource.TOKEN) {
      return CompletableFuture.completedFuture(caller.claimedGroups() == null ? List.of() : caller.claimedGroups());
    }
    return lookedUp(caller.user());
  }

  private CompletionStage<List<String>> lookedUp(String user) {
    long now = clock.millis();
    Cached c = cache.compute(user, (u, old) -> old != null && fresh(old, now) ? old
        : new Cached(CompletableFuture.supplyAsync(() -> lookup.apply(u), blocking)
            .exceptionally(e -> List.of()), now));
    return c.groups();
  }

  private boolean fresh(Cached c, long now) {
    if (!c.groups().isDone()) return true;
    long ttl = c.groups().join().isEmpty() ? settings.negativeCacheTtl().toMillis() : settings.cacheTtl().toMillis();
    return now - c.bornAt() < ttl;
  }

  /** Forgets every user's groups: the next request of each looks them up again. */
  public void refresh() {
    cache.clear();
  }
}
