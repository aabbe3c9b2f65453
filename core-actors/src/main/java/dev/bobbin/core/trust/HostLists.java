package dev.bobbin.core.trust;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * YARN's include and exclude lists of NodeManager hosts: with an include list only its hosts may
 * register, and an excluded host never may. Without lists, every host may.
 */
public record HostLists(Optional<Set<String>> included, Set<String> excluded) {
  public static final HostLists ANY = new HostLists(Optional.empty(), Set.of());

  /**
   * As YARN's NodesListManager: with a non-empty include list, a host in neither list is untracked,
   * and a dead node of it is forgotten after a while. Without an include list no host is.
   */
  public boolean untracked(String host) {
    String h = host == null ? "" : host.toLowerCase(Locale.ROOT);
    return included.map(in -> !in.isEmpty() && !in.contains(h)).orElse(false) && !excluded.contains(h);
  }

  /** Why {@code host} may not register (as YARN's ResourceTrackerService says it); empty when it may. */
  public Optional<String> refusal(String host) {
    String h = host == null ? "" : host.toLowerCase(Locale.ROOT);
    boolean allowed = included.map(in -> in.contains(h)).orElse(true) && !excluded.contains(h);
    return allowed ? Optional.empty()
        : Optional.of("Disallowed NodeManager from  " + host + ", Sending SHUTDOWN signal to the NodeManager.");
  }
}
