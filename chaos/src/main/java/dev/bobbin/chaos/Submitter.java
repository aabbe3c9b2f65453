package dev.bobbin.chaos;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bobbin.am.shell.ShellAmSpec;
import dev.bobbin.protocol.Resource;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Submits distributed-shell applications over the REST API, each to a random serving member and,
 * when that fails, to the next. An application is accepted only when the RM answered 202.
 */
final class Submitter {
  static final String SHELL = "sleep 2; echo ok";
  static final int CONTAINERS = 2;
  private static final Resource WORKER = new Resource(256, 1);
  private static final Resource AM = new Resource(512, 1);
  private static final Duration NEW_APP_TIMEOUT = Duration.ofSeconds(5);
  private static final Duration SUBMIT_TIMEOUT = Duration.ofSeconds(10);

  private final Cluster cluster;
  private final Http http;
  private final AppTracker tracker;
  private final Random random;
  private final List<String> amCommands;
  private final String user = System.getProperty("user.name", "chaos");
  private final AtomicInteger sequence = new AtomicInteger();

  Submitter(Cluster cluster, Http http, AppTracker tracker, Random random, String amClasspath) {
    this.cluster = cluster;
    this.http = http;
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
        Http.Reply r = http.post(m.url() + "/ws/v1/cluster/apps?user.name=" + user, body(id), SUBMIT_TIMEOUT);
        if (r.status() == 202 || r.status() == 200) {
          tracker.accepted(id, System.currentTimeMillis());
          return true;
        }
        tracker.refused();
      } catch (ConnectException | HttpConnectTimeoutException e) {
        tracker.refused();
      } catch (IOException e) {
        // The request went out and no answer came back: the RM may have accepted it.
        tracker.ambiguous(id, System.currentTimeMillis());
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
      Http.Reply r = http.post(m.url() + "/ws/v1/cluster/apps/new-application", null, NEW_APP_TIMEOUT);
      String id = r.ok() ? r.json().path("application-id").asText("") : "";
      if (!id.isBlank()) return id;
    } catch (IOException e) {
      // counted below; the caller tries the next member
    }
    tracker.refused();
    return null;
  }

  private String body(String id) {
    ObjectNode body = Http.JSON.createObjectNode();
    body.put("application-id", id);
    body.put("application-name", "chaos-" + sequence.incrementAndGet());
    body.put("application-type", "DISTRIBUTED-SHELL");
    body.put("queue", "default");
    body.putObject("resource").put("memory", AM.memory()).put("vCores", AM.vCores());
    var commands = body.putObject("am-container-spec").putObject("commands").putArray("command");
    amCommands.forEach(commands::add);
    return body.toString();
  }
}
