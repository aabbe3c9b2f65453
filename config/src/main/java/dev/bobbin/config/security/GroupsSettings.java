package dev.bobbin.config.security;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The user-to-groups mapping ({@code hadoop.security.group.mapping} and its cache).
 *
 * @param cacheTtl how long a user's groups are kept ({@code hadoop.security.groups.cache.secs})
 * @param negativeCacheTtl how long a user without groups is kept
 *     ({@code hadoop.security.groups.negative-cache.secs})
 * @param staticMapping users whose groups are these, whatever the source says
 *     ({@code hadoop.user.group.static.mapping.overrides})
 */
public record GroupsSettings(GroupsSource source, Duration cacheTtl, Duration negativeCacheTtl,
    Map<String, List<String>> staticMapping) {
  public GroupsSettings {
    staticMapping = Map.copyOf(staticMapping);
  }
}
