package dev.bobbin.core.trust;

import dev.bobbin.protocol.CborSerializable;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.pubsub.Topic;

/**
 * A node refresh reaches every member through {@link #TOPIC}: each reads its own copy of the host
 * lists again, so that a host excluded on one member is refused by all.
 */
public final class HostListsRefresh {
  public static final String TOPIC = "bobbin-host-lists-refreshed";

  private HostListsRefresh() {}

  /** A member read the host lists again: read yours. */
  public record Refreshed() implements CborSerializable {}

  /** What the listener hears: a refresh, and how reading the lists again went. */
  public sealed interface Listen {}

  private record ReadAgain() implements Listen {}

  private record Read(HostLists lists, Throwable error) implements Listen {}

  public static Behavior<Listen> listener(MemberHostLists hosts, ActorRef<Topic.Command<Refreshed>> topic) {
    return Behaviors.setup(ctx -> {
      topic.tell(Topic.subscribe(ctx.messageAdapter(Refreshed.class, r -> new ReadAgain())));
      var blocking = ctx.getSystem().dispatchers().lookup(DispatcherSelector.blocking());
      return Behaviors.receive(Listen.class)
          .onMessage(ReadAgain.class, r -> {
            ctx.pipeToSelf(CompletableFuture.supplyAsync(hosts::reload, blocking), Read::new);
            return Behaviors.same();
          })
          .onMessage(Read.class, r -> {
            if (r.error() != null) {
              ctx.getLog().warn("Host lists could not be read again after a node refresh; this member keeps the "
                  + "ones it has: {}", r.error().getMessage());
            } else {
              NodeTrust.logHosts(hosts);
            }
            return Behaviors.same();
          })
          .build();
    });
  }
}
