package dev.bobbin.am.shell;

import dev.bobbin.am.AmClientSettings;
import dev.bobbin.am.AmSystemConfig;
import dev.bobbin.am.CommonPool;
import dev.bobbin.protocol.FinalApplicationStatus;
import dev.bobbin.protocol.client.BobbinHttp;
import dev.bobbin.protocol.client.ContainerManagerClient;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Terminated;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Main of the distributed-shell AM, run by a NodeManager in the AM container:
 * {@code --shell CMD --containers N --memory MB --vcores V [--priority P]}. Exits 0 once the RM
 * recorded the final status (SUCCEEDED or FAILED), 1 when it could not be recorded, 2 on a bad
 * command line and 3 when the container environment lacks what an AM needs.
 */
public final class DistributedShellAm {
  static final String NAME = "DistributedShellAm";
  private static final Logger log = LoggerFactory.getLogger(DistributedShellAm.class);

  private DistributedShellAm() {}

  public static void main(String[] args) {
    CommonPool.ensureParallel();
    System.exit(run(args, System.getenv()));
  }

  static int run(String[] args, Map<String, String> env) {
    ShellAmArgs parsed;
    try {
      parsed = ShellAmArgs.parse(args).shipping(ShippedResources.fromEnvironment(env));
    } catch (IllegalArgumentException e) {
      System.err.println(NAME + ": " + e.getMessage());
      System.err.print(ShellAmArgs.usage());
      return 2;
    }
    AmClientSettings settings;
    try {
      settings = AmClientSettings.fromEnvironment(env);
    } catch (IllegalArgumentException e) {
      System.err.println("DistributedShellAm: " + e.getMessage());
      return 3;
    }
    log.info(
        "Distributed shell AM for attempt {}: {} x [{}] in containers of {}",
        settings.attemptId(), parsed.containers(), parsed.shell(), parsed.size());
    CompletableFuture<ShellAmResult> result = new CompletableFuture<>();
    ActorSystem<ShellAmResult> system =
        ActorSystem.create(guardian(parsed, settings, result), "distributed-shell-am", AmSystemConfig.load());
    ShellAmResult outcome = result.join();
    system.terminate();
    system.getWhenTerminated().toCompletableFuture().join();
    log.info(
        "Final status {}{}: {}", outcome.finalStatus(), outcome.unregistered() ? "" : " (not recorded)",
        outcome.diagnostics());
    return outcome.exitCode();
  }

  // Stops the whole system once the AM reports, so nothing keeps the JVM alive.
  private static Behavior<ShellAmResult> guardian(
      ShellAmArgs args, AmClientSettings settings, CompletableFuture<ShellAmResult> result) {
    return Behaviors.setup(ctx -> {
      var nodeManagers = new ContainerManagerClient(BobbinHttp.builder().tls(settings.tls()).build());
      ActorRef<ShellAppMaster.Command> am =
          ctx.spawn(ShellAppMaster.create(args, settings, nodeManagers, ctx.getSelf()), "shell-am");
      ctx.watch(am);
      return Behaviors.receive(ShellAmResult.class)
          .onMessage(ShellAmResult.class, r -> {
            result.complete(r);
            return Behaviors.stopped();
          })
          .onSignal(Terminated.class, t -> {
            result.complete(new ShellAmResult(FinalApplicationStatus.FAILED, "The AM actor stopped unexpectedly", false));
            return Behaviors.stopped();
          })
          .build();
    });
  }
}
