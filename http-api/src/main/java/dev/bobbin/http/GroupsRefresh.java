package dev.bobbin.http;

import dev.bobbin.auth.Identity;
import dev.bobbin.auth.UserGroups;
import java.util.List;
import java.util.concurrent.CompletionStage;
import dev.bobbin.protocol.CborSerializable;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.pubsub.Topic;

/**
 * {@code yarn rmadmin -refreshUserToGroupsMappings} for a cluster of members: the member that is
 * asked forgets its users' groups at once, and tells every other member to, each of which looks
 * them up afresh on its users' next requests.
 */
public final class GroupsRefresh {
  static final String TOPIC = "bobbin-user-groups-refreshed";

  /** Forget your users' groups. */
  public record Refreshed() implements CborSerializable {}

  private final UserGroups groups;
  private final ActorRef<Topic.Command<Refreshed>> topic;

  private GroupsRefresh(UserGroups groups, ActorRef<Topic.Command<Refreshed>> topic) {
    this.groups = groups;
    this.topic = topic;
  }

  static GroupsRefresh start(ActorSystem<?> system, UserGroups groups) {
    ActorRef<Topic.Command<Refreshed>> topic = system.systemActorOf(Topic.create(Refreshed.class, TOPIC),
        "user-groups-refreshed-topic", Props.empty());
    system.systemActorOf(Behaviors.<Refreshed>setup(ctx -> {
      topic.tell(Topic.subscribe(ctx.getSelf()));
      return Behaviors.receiveMessage(r -> {
        groups.refresh();
        ctx.getLog().info("User to groups mappings refreshed");
        return Behaviors.same();
      });
    }), "user-groups-refreshed", Props.empty());
    return new GroupsRefresh(groups, topic);
  }

  /** A user's groups as this member finds them: static, from tokens, or looked up on the host. */
  CompletionStage<List<String>> groupsOf(Identity who) {
    return groups.groupsOf(who);
  }

  /** @return what the administrator is told */
  String refresh() {
    groups.refresh();
    topic.tell(Topic.publish(new Refreshed()));
    return "User to groups mappings refreshed";
  }
}
