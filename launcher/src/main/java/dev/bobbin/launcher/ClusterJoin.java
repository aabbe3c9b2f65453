package dev.bobbin.launcher;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigValueFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.cluster.typed.JoinSeedNodes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How an RM member joins its cluster: once the journal is reachable, not while the JVM starts
 * (Pekko's default, which starts the seed-node timeout while this JVM is still busy starting up);
 * and the first seed node forms a new cluster by itself only as {@link FirstSeedGuard} allows.
 */
final class ClusterJoin {
  /** RmMember's: these lines belong with its membership log, which the launcher's logback.xml keeps at INFO. */
  private static final Logger log = LoggerFactory.getLogger(RmMember.class);
  private static final String TIMEOUT = "pekko.cluster.seed-node-timeout";
  /** Pekko's seed-node timeout for the first seed node, out of reach: the guard decides instead. */
  private static final String OUT_OF_REACH = "3650d";
  private static final Duration PROBE_EVERY = Duration.ofSeconds(1);

  private final List<Address> seeds;
  private final Duration window;
  private final boolean firstSeed;

  /** @param config the member's whole configuration, before {@link #systemConfig} changes it */
  ClusterJoin(Config config, List<Address> seeds) {
    this.seeds = List.copyOf(seeds);
    this.window = config.getDuration(TIMEOUT);
    this.firstSeed = seeds.stream().distinct().count() > 1 && seeds.get(0).equals(selfAddress(config));
  }

  /** The actor system's configuration: no seed nodes (see {@link #join}); for the first seed, Pekko never times out. */
  Config systemConfig(Config config) {
    Config noSeeds = config.withValue("pekko.cluster.seed-nodes", ConfigValueFactory.fromIterable(List.of()));
    return firstSeed ? noSeeds.withValue(TIMEOUT, ConfigValueFactory.fromAnyRef(OUT_OF_REACH)) : noSeeds;
  }

  /** From the start, before it joins: a first seed node that probes this member gets an answer, not silence. */
  static void answerProbes(ActorSystem<?> system) {
    system.systemActorOf(SeedStatus.behavior(Cluster.get(system)), SeedStatus.NAME, Props.empty());
  }

  void join(ActorSystem<?> system) {
    Cluster cluster = Cluster.get(system);
    Address self = cluster.selfMember().address();
    if (seeds.isEmpty()) {
      cluster.manager().tell(Join.create(self));
      return;
    }
    if (firstSeed && !seeds.get(0).equals(self)) {
      throw new IllegalStateException("this member's address " + self + " is not the first seed node " + seeds.get(0)
          + " it was configured as");
    }
    cluster.manager().tell(new JoinSeedNodes(seeds));
    if (firstSeed) guard(system, cluster, self);
  }

  /** Probes the other seeds on a thread of its own until this member has joined, formed a cluster, or stopped. */
  private void guard(ActorSystem<?> system, Cluster cluster, Address self) {
    List<InetSocketAddress> others = seeds.stream().filter(a -> !a.equals(self))
        .map(a -> InetSocketAddress.createUnresolved(a.getHost().orElse(""), a.getPort().orElse(0))).distinct().toList();
    FirstSeedGuard guard = new FirstSeedGuard(others, window, seed -> SeedStatus.probe(system, seed), System.nanoTime());
    Thread thread = new Thread(() -> {
      try {
        while (cluster.selfMember().status().equals(MemberStatus.removed())
            && !system.getWhenTerminated().toCompletableFuture().isDone()) {
          switch (guard.step(System.nanoTime())) {
            case FORM -> {
              log.info("First seed node: for {} s no other seed node ({}) could be running a cluster (each refused "
                  + "connections or said it is not a member, or was unreachable while a majority of seeds were out "
                  + "of any cluster); forming a new cluster", window.toSeconds(), guard.otherSeeds());
              cluster.manager().tell(Join.create(self));
              return;
            }
            case WAIT_AND_LOG -> log.warn("First seed node: not forming a new cluster while seed node(s) {} could be "
                + "running one; waiting until one lets this member join, or until for {} s none could",
                guard.holdingBack(), window.toSeconds());
            case WAIT -> { }
          }
          TimeUnit.MILLISECONDS.sleep(PROBE_EVERY.toMillis());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "bobbin-first-seed-guard");
    thread.setDaemon(true);
    thread.start();
  }

  /** The address Pekko will give this member, from the same settings it reads. */
  private static Address selfAddress(Config config) {
    return new Address("pekko", "bobbin", config.getString("pekko.remote.artery.canonical.hostname"),
        config.getInt("pekko.remote.artery.canonical.port"));
  }
}
