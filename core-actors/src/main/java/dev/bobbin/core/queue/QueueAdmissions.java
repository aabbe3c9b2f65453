package dev.bobbin.core.queue;

import dev.bobbin.core.base.Retrying;
import dev.bobbin.core.policy.AdmissionTerms;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.pattern.StatusReply;

/**
 * A member's admissions to queues, one write in flight per queue: the submissions that arrive while
 * a queue's write is pending go together in its next one ({@link QueueEntity.AddApps}). A queue's
 * entity persists one command at a time, so with one write per submission every submission to a
 * busy queue would wait for the one before it, and a member would admit half as many to a queue
 * that takes most submissions. Local to its member: its messages never leave it.
 */
public final class QueueAdmissions extends AbstractBehavior<QueueAdmissions.Command> {

  /** The most applications one write admits; the rest wait for the next. */
  static final int MAX_BATCH = 256;

  public sealed interface Command {}

  /**
   * Answered once the queue holds the application; with the queue's refusal, or a
   * {@link java.util.concurrent.TimeoutException} when the queue did not answer in time.
   *
   * @param user whose application it is, for the per-user limit; null counts for no user
   */
  public record Admit(String queue, String appId, String user, String configVersion, AdmissionTerms terms,
      ActorRef<StatusReply<Done>> replyTo) implements Command {
    /** An application of no known user. */
    public Admit(String queue, String appId, String configVersion, AdmissionTerms terms,
        ActorRef<StatusReply<Done>> replyTo) {
      this(queue, appId, null, configVersion, terms, replyTo);
    }
  }

  /** {@code batch}: the very list it wrote, so that an answer from before a restart is told apart. */
  private record Written(String queue, List<Admit> batch, QueueEntity.Admitted admitted, Throwable failure)
      implements Command {}

  /** A queue's admissions: those in its write, and those waiting for the next. */
  private static final class Line {
    final ArrayDeque<Admit> waiting = new ArrayDeque<>();
    List<Admit> writing = List.of();
  }

  private final Function<String, RecipientRef<QueueEntity.Command>> queues;
  private final Duration timeout;
  private final Map<String, Line> lines = new HashMap<>();

  /**
   * @param queues the queue entity of a queue's name
   * @param timeout how long a write may take, retries included ({@link Retrying})
   */
  public static Behavior<Command> create(Function<String, RecipientRef<QueueEntity.Command>> queues,
      Duration timeout) {
    return Behaviors.setup(ctx -> new QueueAdmissions(ctx, queues, timeout));
  }

  private QueueAdmissions(ActorContext<Command> ctx, Function<String, RecipientRef<QueueEntity.Command>> queues,
      Duration timeout) {
    super(ctx);
    this.queues = queues;
    this.timeout = timeout;
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Admit.class, this::onAdmit)
        .onMessage(Written.class, this::onWritten)
        .build();
  }

  private Behavior<Command> onAdmit(Admit m) {
    Line line = lines.computeIfAbsent(m.queue(), q -> new Line());
    line.waiting.add(m);
    if (line.writing.isEmpty()) write(m.queue(), line);
    return this;
  }

  private Behavior<Command> onWritten(Written m) {
    Line line = lines.get(m.queue());
    if (line == null || line.writing != m.batch()) return this;
    for (Admit a : line.writing) {
      String refused = m.failure() == null ? m.admitted().refused().get(a.appId()) : null;
      a.replyTo().tell(m.failure() != null ? StatusReply.error(Retrying.cause(m.failure()))
          : refused != null ? StatusReply.error(refused) : StatusReply.ack());
    }
    line.writing = List.of();
    if (line.waiting.isEmpty()) {
      lines.remove(m.queue());
    } else {
      write(m.queue(), line);
    }
    return this;
  }

  private void write(String queue, Line line) {
    List<Admit> batch = new ArrayList<>(Math.min(line.waiting.size(), MAX_BATCH));
    while (!line.waiting.isEmpty() && batch.size() < MAX_BATCH) batch.add(line.waiting.poll());
    line.writing = batch;
    List<String> ids = batch.stream().map(Admit::appId).toList();
    Map<String, String> users = new HashMap<>();
    for (Admit a : batch) if (a.user() != null) users.put(a.appId(), a.user());
    // The last one told, nearly always the newest; one out of order costs the next write one more
    // Configured event, no more. Its terms come with its version.
    Admit last = batch.get(batch.size() - 1);
    RecipientRef<QueueEntity.Command> entity = queues.apply(queue);
    var scheduler = getContext().getSystem().scheduler();
    getContext().pipeToSelf(
        Retrying.<QueueEntity.Admitted>ask(t -> AskPattern.askWithStatus(entity,
            r -> new QueueEntity.AddApps(ids, users, last.configVersion(), last.terms(), r), t, scheduler), timeout),
        (admitted, e) -> new Written(queue, batch, admitted, e));
  }
}
