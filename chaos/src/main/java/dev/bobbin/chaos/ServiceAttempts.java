package dev.bobbin.chaos;

import dev.bobbin.protocol.client.CallException;
import dev.bobbin.protocol.rest.AppAttemptInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** After the run: every accepted long-running service's attempts, as a serving member lists them. */
final class ServiceAttempts {
  private static final Duration REQUEST = Duration.ofSeconds(5);

  private ServiceAttempts() {}

  /** The services whose attempts a serving member listed; a note for each no member did. */
  static List<InvariantChecker.Service> read(Cluster cluster, ClusterClients clients, AppTracker tracker,
      List<String> notes) {
    List<InvariantChecker.Service> out = new ArrayList<>();
    for (AppTracker.App a : tracker.accepted()) {
      if (!a.keepContainers()) continue;
      Optional<List<AppAttemptInfo>> attempts = attempts(cluster, clients, a.id());
      if (attempts.isPresent()) {
        out.add(InvariantChecker.Service.of(a.id(), Submitter.CONTAINERS, attempts.get()));
      } else {
        notes.add("kept containers of " + a.id() + " not checked: no serving member listed its attempts");
      }
    }
    return out;
  }

  private static Optional<List<AppAttemptInfo>> attempts(Cluster cluster, ClusterClients clients, String appId) {
    for (Member m : cluster.serving()) {
      try {
        return Optional.of(clients.rm(m, REQUEST).attempts(appId));
      } catch (CallException e) {
        // ask the next member
      }
    }
    return Optional.empty();
  }
}
