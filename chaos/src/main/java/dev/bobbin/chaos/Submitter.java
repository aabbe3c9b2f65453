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
 *
 * <p>A share of them, spread evenly through the stream from the first on, are long-running
 * services: they keep their containers across attempts, their tasks run long enough to outlive
 * the AM kills of {@code am-kill} faults, and they may use {@link #SERVICE_MAX_ATTEMPTS} attempts.
 */
final class Submitter {
  static final String SHELL = "sleep 2; echo ok";
  static final int CONTAINERS = 2;
  /** The attempts a long-running service may use; the members' cap ({@code bobbin.rm.am-max-attempts}) is raised to it. */
  static final int SERVICE_MAX_ATTEMPTS = 4;
  /** The RM's default, which the other applications keep under the raised cap. */
  static final int MAX_ATTEMPTS = 2;
  private static final Duration SERVICE_TASK_MIN = Duration.ofSeconds(10);
  private static final Duration SERVICE_TASK_MAX = Duration.ofSeconds(60);
  private static final Resource WORKER = new Resource(256, 1);
  private static final Resource AM = new Resource(512, 1);
  private static final Duration NEW_APP_TIMEOUT = Duration.ofSeconds(5);
  private static final Duration SUBMIT_TIMEOUT = Duration.ofSeconds(10);

  private final Cluster cluster;
  private final ClusterClients clients;
  private final AppTracker tracker;
  private final Random random;
  private final List<String> amCommands;
  private final List<String> serviceAmCommands;
  private final double serviceShare;
  private final String user = System.getProperty("user.name", "chaos");
  private final AtomicInteger sequence = new AtomicInteger();
  private final AtomicInteger applications = new AtomicInteger();

  Submitter(Cluster cluster, ClusterClients clients, AppTracker tracker, Random random, String amClasspath,
      ChaosOptions options) {
    this.cluster = cluster;
    this.clients = clients;
    this.tracker = tracker;
    this.random = random;
    this.amCommands = ShellAmSpec.commands(amClasspath, SHELL, CONTAINERS, WORKER, 0);
    this.serviceAmCommands = ShellAmSpec.commands(amClasspath, serviceShell(options.duration()), CONTAINERS, WORKER,
        0, true);
    this.serviceShare = options.keepContainersShare();
  }

  /**
   * A long-running service's task: a third of the run's duration, from 10 s to 60 s, so that it
   * outlives an AM kill and the next attempt's start, and the drain after the run stays short.
   */
  static String serviceShell(Duration runDuration) {
    Duration d = runDuration.dividedBy(3);
    if (d.compareTo(SERVICE_TASK_MIN) < 0) d = SERVICE_TASK_MIN;
    if (d.compareTo(SERVICE_TASK_MAX) > 0) d = SERVICE_TASK_MAX;
    return "sleep " + d.toSeconds() + "; echo ok";
  }

  /** Whether the {@code n}th application (from 0) is a long-running service: {@code share} of them, evenly spread. */
  static boolean isService(int n, double share) {
    return Math.ceil((n + 1) * share) > Math.ceil(n * share);
  }

  /** Submits one application; true once a member accepted it. */
  boolean submitOnce() {
    boolean service = isService(applications.getAndIncrement(), serviceShare);
    List<Member> targets = new ArrayList<>(cluster.serving());
    Collections.shuffle(targets, random);
    for (Member m : targets) {
      String id = newApplication(m);
      if (id == null) continue;
      try {
        clients.rm(m, user, SUBMIT_TIMEOUT).submit(body(id, service));
        tracker.accepted(id, System.currentTimeMillis(), service);
        return true;
      } catch (RemoteErrorException e) {
        tracker.refused();
      } catch (UnreachableException e) {
        if (e.connectFailed()) {
          tracker.refused();
        } else {
          // The request went out and no answer came back: the RM may have accepted it.
          tracker.ambiguous(id, System.currentTimeMillis(), service);
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

  Map<String, Object> body(String id, boolean service) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("application-id", id);
    body.put("application-name", (service ? "chaos-service-" : "chaos-") + sequence.incrementAndGet());
    body.put("application-type", "DISTRIBUTED-SHELL");
    body.put("queue", "default");
    body.put("resource", AM);
    body.put("max-app-attempts", service ? SERVICE_MAX_ATTEMPTS : MAX_ATTEMPTS);
    if (service) body.put("keep-containers-across-application-attempts", true);
    body.put("am-container-spec", Map.of("commands", Map.of("command", service ? serviceAmCommands : amCommands)));
    return body;
  }
}
