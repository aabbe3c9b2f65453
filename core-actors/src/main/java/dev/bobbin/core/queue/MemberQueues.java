package dev.bobbin.core.queue;

import dev.bobbin.config.QueuePath;
import dev.bobbin.config.fair.Placement;
import dev.bobbin.core.policy.AdmissionTerms;
import dev.bobbin.core.policy.ApplicationPriorities;
import dev.bobbin.core.policy.PolicyConfig;
import dev.bobbin.core.policy.PolicySet;
import dev.bobbin.core.policy.QueueAcls;
import dev.bobbin.core.policies.PolicySets;
import dev.bobbin.protocol.CborSerializable;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.pubsub.Topic;

/**
 * This member's copy of the queue configuration: where its submissions go, and the version its
 * queues admit them under. Every member places its own submissions, so a submission reaches the
 * scheduler once, when its attempt starts. A refresh that the scheduler accepted is announced to
 * every member ({@link #TOPIC}), which then reads its own copy of the configuration again.
 */
public final class MemberQueues {
  public static final String TOPIC = "bobbin-queues-refreshed";

  /** The scheduler took a new queue configuration: read yours again. */
  public record Refreshed() implements CborSerializable {}

  private record Current(PolicySet policy, String version) {}

  private volatile Current current;

  public MemberQueues(PolicyConfig config) {
    swap(config);
  }

  /**
   * Where a submission goes. The placement reads the configuration only, so it runs on the caller's
   * thread.
   *
   * @param groups the user's groups, primary first, as the cluster's group mapping gives them
   */
  public Placement place(String requestedQueue, String user, List<String> groups) {
    return current.policy().place(requestedQueue, user, groups);
  }

  /** Who may submit to and administer each queue, as this member's configuration says. */
  public QueueAcls queueAcls() {
    return current.policy().queueAcls();
  }

  /** The cap on application priorities and each leaf's default, as this member's configuration says. */
  public ApplicationPriorities priorities() {
    return current.policy().priorities();
  }

  /** The leaf an application may be moved to when asked for {@code queue}, or why not. */
  public Placement moveTarget(String queue) {
    return current.policy().moveTarget(queue);
  }

  /** What the leaf's entity checks before it admits a submission placed there. */
  public AdmissionTerms admission(QueuePath leaf) {
    return current.policy().admission(leaf);
  }

  /** The terms of the cluster-wide count of applications, when the policy keeps one. */
  public java.util.Optional<AdmissionTerms> clusterAdmission() {
    return current.policy().clusterAdmission();
  }

  /** Changes with the configuration; the queue entities record the version they admit under. */
  public String version() {
    return current.version();
  }

  public void swap(PolicyConfig config) {
    current = new Current(PolicySets.create(config), Integer.toHexString(config.toString().hashCode()));
  }

  /** What the listener hears: a refresh, and the configuration it read again. */
  public sealed interface Listen {}

  private record ReadAgain() implements Listen {}

  private record Loaded(PolicyConfig config, String error) implements Listen {}

  /** Subscribes to {@code topic}, and reads the configuration again (off the actor's thread) on each refresh. */
  public static Behavior<Listen> listener(MemberQueues queues, Supplier<PolicyConfig> reload,
      ActorRef<Topic.Command<Refreshed>> topic) {
    return Behaviors.setup(ctx -> {
      topic.tell(Topic.subscribe(ctx.messageAdapter(Refreshed.class, r -> new ReadAgain())));
      var blocking = ctx.getSystem().dispatchers().lookup(DispatcherSelector.blocking());
      return Behaviors.receive(Listen.class)
          .onMessage(ReadAgain.class, r -> {
            ctx.pipeToSelf(CompletableFuture.supplyAsync(reload, blocking),
                (config, e) -> new Loaded(config, e == null ? null : e.toString()));
            return Behaviors.same();
          })
          .onMessage(Loaded.class, l -> {
            if (l.error() != null) {
              ctx.getLog().warn("Queue configuration could not be read again after a refresh; this member places "
                  + "with the one it has: {}", l.error());
            } else {
              queues.swap(l.config());
              ctx.getLog().info("Queue configuration read again after a refresh: version {}", queues.version());
            }
            return Behaviors.same();
          })
          .build();
    });
  }
}
