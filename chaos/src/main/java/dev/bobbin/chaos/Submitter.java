package dev.bobbin.chaos;

import dev.bobbin.am.shell.ShellAmSpec;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.client.CallException;
import dev.bobbin.protocol.client.RemoteErrorException;
import dev.bobbin.protocol.client.UnreachableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Submits distributed-shell applications over the REST API, each to a random serving member and,
 * when that fails, to the next. An application is accepted only when the RM answered its
 * submission with success.
 */
final class Submitter {
  static final String SHELL = "sleep 2; echo ok";
  static final int CONTAINERS = 2;
  private static final Resource WORKER = new Resource(256, 1);
  private static final Resource AM = new Resource(512, 1);
  private static final Duration NEW_APP_TIMEOUT = Duration.ofSeconds(5);
  private static final Duration SUBMIT_TIMEOUT = Duration.ofSeconds(10);

  private final Cluster cluster;
  private final ClusterClients clients;
  private final AppTracker tracker;
  private final Random random;
  private final List<String> amCommands;
  private final String user = System.getProperty("user.name", "chaos");
  private final AtomicInteger sequence = new AtomicInteger();

  Submitter(Cluster cluster, ClusterClients clients, AppTracker tracker, Random random, String amClasspath) {
    this.cluster = cluster;
    this.clients = clients;
    this.tracker = tracker;
    this.random = random;
    this.amCommands = ShellAmSpec.commands(amClasspath, SHELL, CONTAINERS, WORKER, 0);
  }

  /** Submits one application; true once a member accepted it. */
  boolean submitOnce() {
    List<Member> targets = new ArrayList<>(cluster.serving());
    Collections.shuffle(targets, random);
    for (Member m : targets) {
      String id = newApplication(m);
      if (id == null) continue;
      try {
        clients.rm(m, user, SUBMIT_TIMEOUT).submit(body(id));
        tracker.accepted(id, System.currentTimeMillis());
        return true;
      } catch (RemoteErrorException e) {
        tracker.refused();
      } catch (UnreachableException e) {
        if (e.connectFailed()) {
          tracker.refused();
        } else {
          // The request went out and no answer came back: the RM may have accepted it.
          tracker.ambiguous(id, System.currentTimeMillis());
        }
      }
    }
    return false;
  }

  /** Submits at {@code perMinute} until {@code keepGoing} says stop; run on its own thread. */
  void stream(double perMinute, java.util.function.BooleanSupplier keepGoing) {
    long period = Math.round(60_000_000_000.0 / perMinute);
    long next = System.nanoTime();
    while (keepGoing.getAsBoolean()) {
      submitOnce();
      next += period;
      while (keepGoing.getAsBoolean() && System.nanoTime() < next) {
        if (!Sleep.millis(Math.min(200, (next - System.nanoTime()) / 1_000_000 + 1))) return;
      }
    }
  }

  private String newApplication(Member m) {
    try {
      String id = clients.rm(m, user, NEW_APP_TIMEOUT).newApplication().applicationId();
      if (id != null && !id.isBlank()) return id;
    } catch (CallException e) {
      // counted below; the caller tries the next member
    }
    tracker.refused();
    return null;
  }

  private Map<String, Object> body(String id) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("application-id", id);
    body.put("application-name", "chaos-" + sequence.incrementAndGet());
    body.put("application-type", "DISTRIBUTED-SHELL");
    body.put("queue", "default");
    body.put("resource", AM);
    body.put("am-container-spec", Map.of("commands", Map.of("command", amCommands)));
    return body;
  }
}
