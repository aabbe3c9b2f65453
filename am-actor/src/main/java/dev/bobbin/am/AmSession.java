package dev.bobbin.am;

import dev.bobbin.protocol.FinalApplicationStatus;
import dev.bobbin.protocol.am.RegisterAmResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Facade over an {@link AmClient} for an AM main written without actors: starts its own
 * ActorSystem, registers at once, and calls an {@link AmListener}.
 *
 * <pre>{@code
 * try (AmSession am = AmSession.start(AmClientSettings.fromEnvironment(System.getenv()), listener)) {
 *   am.registered().toCompletableFuture().join();
 *   am.addContainerRequest(ContainerRequest.any(Resource.of(1024, 1), 0));
 *   ... // start containers with ContainerManagerClient from listener.onContainersAllocated
 *   am.unregister(FinalApplicationStatus.SUCCEEDED, "").toCompletableFuture().join();
 * }
 * }</pre>
 */
public final class AmSession implements AutoCloseable {
  private final ActorSystem<Void> system;
  private final ActorRef<AmClient.Command> client;
  private final CompletableFuture<RegisterAmResponse> registered;
  private final Duration unregisterTimeout;

  private AmSession(
      ActorSystem<Void> system,
      ActorRef<AmClient.Command> client,
      CompletableFuture<RegisterAmResponse> registered,
      Duration unregisterTimeout) {
    this.system = system;
    this.client = client;
    this.registered = registered;
    this.unregisterTimeout = unregisterTimeout;
  }

  public static AmSession start(AmClientSettings settings, AmListener listener) {
    CompletableFuture<RegisterAmResponse> registered = new CompletableFuture<>();
    CompletableFuture<ActorRef<AmClient.Command>> client = new CompletableFuture<>();
    Behavior<Void> guardian =
        Behaviors.setup(ctx -> {
          ActorRef<AmEvent> events = ctx.spawn(callbacks(listener, registered), "am-listener");
          client.complete(ctx.spawn(AmClient.create(settings, events), "am-client"));
          return Behaviors.empty();
        });
    ActorSystem<Void> system = ActorSystem.create(guardian, "am", AmSystemConfig.load());
    Duration timeout = settings.giveUpAfter().plus(settings.requestTimeout()).plusSeconds(30);
    return new AmSession(system, client.join(), registered, timeout);
  }

  /** Completes with the first registration; fails if the RM shuts the attempt down first. */
  public CompletionStage<RegisterAmResponse> registered() {
    return registered;
  }

  public void addContainerRequest(ContainerRequest request) {
    client.tell(new AmClient.AddContainerRequest(request));
  }

  public void removeContainerRequest(ContainerRequest request) {
    client.tell(new AmClient.RemoveContainerRequest(request));
  }

  public void releaseAssignedContainer(String containerId) {
    client.tell(new AmClient.ReleaseAssignedContainer(containerId));
  }

  public void setProgress(float progress) {
    client.tell(new AmClient.SetProgress(progress));
  }

  /** Completes once the RM recorded the final status; fails when it cannot be recorded. */
  public CompletionStage<Done> unregister(FinalApplicationStatus status, String diagnostics) {
    return AskPattern.askWithStatus(
        client,
        replyTo -> new AmClient.Unregister(status, diagnostics, "", replyTo),
        unregisterTimeout,
        system.scheduler());
  }

  @Override
  public void close() {
    system.terminate();
    system.getWhenTerminated().toCompletableFuture().join();
  }

  private static Behavior<AmEvent> callbacks(
      AmListener listener, CompletableFuture<RegisterAmResponse> registered) {
    return Behaviors.receive(AmEvent.class)
        .onMessage(AmEvent.Registered.class, e -> {
          registered.complete(e.response());
          listener.onRegistered(e.response(), e.afterResync());
          return Behaviors.same();
        })
        .onMessage(AmEvent.ContainersAllocated.class, e -> {
          listener.onContainersAllocated(e.containers());
          return Behaviors.same();
        })
        .onMessage(AmEvent.ContainersCompleted.class, e -> {
          listener.onContainersCompleted(e.statuses());
          return Behaviors.same();
        })
        .onMessage(AmEvent.ShutdownRequested.class, e -> {
          registered.completeExceptionally(new IllegalStateException(e.reason()));
          listener.onShutdownRequest(e.reason());
          return Behaviors.same();
        })
        .onMessage(AmEvent.Failed.class, e -> {
          registered.completeExceptionally(new IllegalStateException(e.reason()));
          listener.onError(e.reason());
          return Behaviors.same();
        })
        .onMessage(AmEvent.Unregistered.class, e -> Behaviors.same())
        .build();
  }
}
