package dev.bobbin.core.trust;

import dev.bobbin.config.HostsFile;
import dev.bobbin.config.NodeTrustSettings;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The host lists this member checks registrations against, read from the configured files at start
 * and again with each node refresh. A list that cannot be read is refused and the member keeps the
 * lists it had.
 */
public final class MemberHostLists {
  static final String INCLUDE_KEY = "bobbin.rm.nodes.include-path";
  static final String EXCLUDE_KEY = "bobbin.rm.nodes.exclude-path";

  private final NodeTrustSettings settings;
  private final AtomicReference<HostLists> current;

  MemberHostLists(NodeTrustSettings settings) {
    this.settings = settings;
    this.current = new AtomicReference<>(read(settings));
  }

  /** The lists in use now. */
  public HostLists current() {
    return current.get();
  }

  /**
   * Reads both files again and swaps them in (blocking: it reads files).
   *
   * @throws dev.bobbin.config.SettingsException naming the file that cannot be read; nothing changes then
   */
  public HostLists reload() {
    HostLists read = read(settings);
    current.set(read);
    return read;
  }

  /** Whether any list is configured at all. */
  public boolean configured() {
    return settings.includePath().isPresent() || settings.excludePath().isPresent();
  }

  NodeTrustSettings settings() {
    return settings;
  }

  private static HostLists read(NodeTrustSettings settings) {
    return new HostLists(
        settings.includePath().map(p -> HostsFile.read(p, INCLUDE_KEY)),
        settings.excludePath().map(p -> HostsFile.read(p, EXCLUDE_KEY)).orElse(Set.<String>of()));
  }
}
