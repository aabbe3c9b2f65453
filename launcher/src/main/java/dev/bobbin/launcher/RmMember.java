package dev.bobbin.launcher;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.RmSettings;
import dev.bobbin.config.SchedulerPolicy;
import dev.bobbin.config.SchedulerSettings;
import dev.bobbin.config.fair.FairGlobalSettings;
import dev.bobbin.config.fair.FairSchedulerConfig;
import dev.bobbin.core.scheduler.FairSetup;
import dev.bobbin.core.RmCore;
import dev.bobbin.http.RmHttpApi;
import dev.bobbin.persistence.JournalConfig;
import dev.bobbin.persistence.JournalSchema;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One running RM member: its actor system, its actors and its HTTP server. */
public final class RmMember implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RmMember.class);

  private final ActorSystem<Void> system;
  private final RmCore core;
  private final ServerBinding binding;

  private RmMember(ActorSystem<Void> system, RmCore core, ServerBinding binding) {
    this.system = system;
    this.core = core;
    this.binding = binding;
  }

  /**
   * Starts a member from what the user configured (see {@code Settings.userConfig}): the
   * {@code bobbin} section and any Pekko overrides, layered over the RM's Pekko defaults.
   */
  public static RmMember start(Config user) throws Exception {
    return start(user, () -> user);
  }

  /** @param reload reads the user's configuration again, for a queue refresh */
  public static RmMember start(Config user, java.util.function.Supplier<Config> reload) throws Exception {
    Config withRm = user.withFallback(ConfigFactory.parseResources("bobbin-rm.conf"))
        .withFallback(ConfigFactory.defaultReference()).resolve();
    RmSettings rm = RmSettings.from(withRm);
    SchedulerSettings scheduler = SchedulerSettings.from(withRm);
    Config full = JournalConfig.overlay(withRm, rm.dataDir().toAbsolutePath()).withFallback(withRm).resolve();
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "bobbin", full);
    try {
      JournalSchema.ensure(system).toCompletableFuture().get(60, TimeUnit.SECONDS);
      Cluster cluster = Cluster.get(system);
      if (full.getStringList("pekko.cluster.seed-nodes").isEmpty()) {
        cluster.manager().tell(Join.create(cluster.selfMember().address()));
      }
      String self = "http://" + rm.hostname() + ":" + rm.httpPort();
      List<String> addresses = full.hasPath("bobbin.rm.addresses") && !full.getStringList("bobbin.rm.addresses").isEmpty()
          ? full.getStringList("bobbin.rm.addresses") : List.of(self);
      RmCore core = new RmCore(system, rm, scheduler, addresses, fairSetup(withRm, scheduler),
          () -> fairSetup(reload.get().withFallback(ConfigFactory.parseResources("bobbin-rm.conf"))
              .withFallback(ConfigFactory.defaultReference()).resolve(), scheduler));
      ServerBinding binding = new RmHttpApi(core).bind(system, rm.hostname(), rm.httpPort())
          .toCompletableFuture().get(30, TimeUnit.SECONDS);
      log.info("RM member up: HTTP {} cluster {} journal {} data {}", binding.localAddress(),
          cluster.selfMember().address(), full.getString("bobbin.persistence.journal"), rm.dataDir().toAbsolutePath());
      return new RmMember(system, core, binding);
    } catch (Exception e) {
      system.terminate();
      throw e;
    }
  }

  /** The Fair policy's queues and switches, read now (so a refresh re-reads the allocation file). */
  static FairSetup fairSetup(Config config, SchedulerSettings scheduler) {
    if (scheduler.policy() != SchedulerPolicy.FAIR) return null;
    return new FairSetup(FairSchedulerConfig.load(config), FairGlobalSettings.from(config));
  }

  public int httpPort() {
    return binding.localAddress().getPort();
  }

  public String url() {
    return "http://" + binding.localAddress().getHostString() + ":" + httpPort();
  }

  public RmCore core() {
    return core;
  }

  public ActorSystem<Void> system() {
    return system;
  }

  @Override
  public void close() {
    binding.unbind();
    system.terminate();
    try {
      system.getWhenTerminated().toCompletableFuture().get(Duration.ofSeconds(30).toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      log.warn("RM member did not stop cleanly: {}", e.toString());
    }
  }
}
