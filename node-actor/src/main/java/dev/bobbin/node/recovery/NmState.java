package dev.bobbin.node.recovery;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Everything the state store held when the NodeManager started. */
public record NmState(List<StoredContainer> containers, List<StoredApplication> applications) {
  public static final NmState EMPTY = new NmState(List.of(), List.of());

  public NmState {
    containers = List.copyOf(containers);
    applications = List.copyOf(applications);
  }

  /** Every application it names, with or without containers. */
  public Set<String> applicationIds() {
    Set<String> ids = new TreeSet<>();
    containers.forEach(c -> ids.add(c.applicationId()));
    applications.forEach(a -> ids.add(a.applicationId()));
    return ids;
  }
}
