package dev.bobbin.core.launch;

import dev.bobbin.config.HttpTls;
import dev.bobbin.protocol.CborSerializable;
import dev.bobbin.protocol.ContainerEnv;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.am.Container;
import dev.bobbin.protocol.client.BobbinHttp;
import dev.bobbin.protocol.client.ContainerManagerClient;
import dev.bobbin.protocol.client.Failover;
import dev.bobbin.protocol.client.TlsSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Starts AM containers on their NodeManagers, as YARN's ApplicationMasterLauncher does: each start
 * is one blocking call on a pool of its own ({@code bobbin.rm.am-launcher-threads}), so a slow
 * NodeManager holds a launcher thread and nothing else. The AM gets the RM addresses (in the order
 * it should call them) and its AM token in its environment. Each start is answered with {@link Launched}; the scheduler completes
 * a container whose start failed, and so fails the attempt.
 */
public final class AmLauncher {
  public sealed interface Command extends CborSerializable {}

  public record Launch(
      String appId, String attemptId, String user, Container container, ContainerLaunchContext launch,
      String amToken, ActorRef<Launched> replyTo) implements Command {
    public Launch withReplyTo(ActorRef<Launched> to) {
      return new Launch(appId, attemptId, user, container, launch, amToken, to);
    }
  }

  /** @param error why the start failed, or null when the NodeManager started the container */
  public record Launched(String containerId, String error) implements CborSerializable {}

  /** @param error why the start failed, or null when the NodeManager started the container */
  record Started(Launch launch, String error) implements Command {}

  private AmLauncher() {}

  public static Behavior<Command> create(List<String> rmAddresses, Duration timeout, int threads) {
    return create(rmAddresses, timeout, threads, HttpTls.none());
  }

  /** @param tls how the launcher reaches NodeManagers, and what it tells AMs to trust */
  public static Behavior<Command> create(List<String> rmAddresses, Duration timeout, int threads, HttpTls tls) {
    Map<String, String> tlsEnv = TlsSettings.environment(tls.trustStore(), tls.trustStorePassword(), tls.httpsOnly());
    return Behaviors.setup(ctx -> {
      ExecutorService pool = newPool(threads);
      // A launcher thread waits for each answer anyway: decoding it on the client's own thread
      // saves a hand-off to another pool per launch.
      ContainerManagerClient nodeManagers = new ContainerManagerClient(BobbinHttp.builder().connectTimeout(timeout)
          .requestTimeout(timeout).executor(Runnable::run)
          .tls(TlsSettings.trusting(tls.trustStore(), tls.trustStorePassword(), tls.httpsOnly())).build());
      return Behaviors.receive(Command.class)
          .onMessage(Launch.class, l -> {
            ctx.getLog().info("Launching AM container {} for {} on {}", l.container().id(), l.attemptId(),
                l.container().nodeId());
            ctx.pipeToSelf(CompletableFuture.supplyAsync(() -> start(l, rmAddresses, tlsEnv, nodeManagers), pool),
                (error, thrown) -> new Started(l, thrown != null ? thrown.toString() : error));
            return Behaviors.same();
          })
          .onMessage(Started.class, s -> {
            if (s.error() != null) {
              ctx.getLog().warn("AM container {} failed to start: {}", s.launch().container().id(), s.error());
            }
            s.launch().replyTo().tell(new Launched(s.launch().container().id(), s.error()));
            return Behaviors.same();
          })
          .onSignal(PostStop.class, sig -> {
            pool.shutdownNow();
            return Behaviors.same();
          })
          .build();
    });
  }

  private static ExecutorService newPool(int threads) {
    AtomicInteger n = new AtomicInteger();
    return Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "am-launcher-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * The members in the order this attempt's AM calls them: starting at the one its id falls on, so
   * that AMs spread over the members rather than all calling the first, and all waiting on it when
   * it is the one that went away.
   */
  static List<String> forAttempt(List<String> rmAddresses, String attemptId) {
    return Failover.over(rmAddresses).startingFor(attemptId).inCallingOrder();
  }

  /**
   * Starts the container on its NodeManager and waits for the answer on this launcher thread. The
   * request is sent once: a start that fails midway fails the attempt rather than maybe starting
   * the container twice.
   *
   * @return why the start failed, or null when the NodeManager started the container
   */
  static String start(
      Launch l, List<String> rmAddresses, Map<String, String> tlsEnv, ContainerManagerClient nodeManagers) {
    Map<String, String> env = new HashMap<>(l.launch().environment());
    env.putAll(tlsEnv);
    env.put(ContainerEnv.RM_ADDRESSES, String.join(",", forAttempt(rmAddresses, l.attemptId())));
    env.put(ContainerEnv.AM_TOKEN, l.amToken());
    try {
      var launch = l.launch().withEnvironment(env);
      BobbinHttp.await(nodeManagers.startContainer(l.container(), launch));
      return null;
    } catch (RuntimeException e) {
      return e.getMessage();
    }
  }
}
