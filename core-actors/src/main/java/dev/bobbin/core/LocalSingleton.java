package dev.bobbin.core;

import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.BehaviorInterceptor;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.Signal;
import org.apache.pekko.actor.typed.TypedActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * The way to a cluster singleton that skips its proxy while the singleton runs on this member.
 * Every message through a proxy is one more actor, one more mailbox and often one more thread to
 * wake; the NM heartbeats and AM allocate calls all go to the scheduler, so on its member they go
 * to it directly. Elsewhere, and while it moves, they go through the proxy, which buffers them
 * until the singleton runs again.
 */
public final class LocalSingleton<T> {
  private final AtomicReference<ActorRef<T>> local = new AtomicReference<>();
  private final ActorRef<T> proxy;

  /**
   * @param init starts the singleton with the given behavior (wrapped so that it registers here)
   *     and returns its proxy
   */
  public static <T> LocalSingleton<T> init(Class<T> type, Behavior<T> behavior,
      java.util.function.Function<Behavior<T>, ActorRef<T>> init) {
    return new LocalSingleton<>(type, behavior, init);
  }

  private LocalSingleton(Class<T> type, Behavior<T> behavior, java.util.function.Function<Behavior<T>, ActorRef<T>> init) {
    this.proxy = init.apply(registering(type, behavior, local));
  }

  /** The singleton itself if it runs on this member, else its proxy. */
  public ActorRef<T> ref() {
    ActorRef<T> ref = local.get();
    return ref != null ? ref : proxy;
  }

  /** The proxy, for those that keep the reference for long (it follows the singleton when it moves). */
  public ActorRef<T> proxy() {
    return proxy;
  }

  /** Wraps the singleton's behavior so that it registers itself when it starts and withdraws when it stops. */
  static <T> Behavior<T> registering(Class<T> type, Behavior<T> behavior, AtomicReference<ActorRef<T>> local) {
    return Behaviors.intercept(() -> new BehaviorInterceptor<T, T>(type) {
      @Override
      public Behavior<T> aroundStart(TypedActorContext<T> ctx, PreStartTarget<T> target) {
        local.set(ctx.asJava().getSelf());
        return target.start(ctx);
      }

      @Override
      public Behavior<T> aroundReceive(TypedActorContext<T> ctx, T msg, ReceiveTarget<T> target) {
        return target.apply(ctx, msg);
      }

      @Override
      public Behavior<T> aroundSignal(TypedActorContext<T> ctx, Signal signal, SignalTarget<T> target) {
        if (signal instanceof PostStop) local.compareAndSet(ctx.asJava().getSelf(), null);
        return target.apply(ctx, signal);
      }
    }, behavior);
  }
}
