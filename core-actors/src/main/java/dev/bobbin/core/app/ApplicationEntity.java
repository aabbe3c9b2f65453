package dev.bobbin.core.app;

import dev.bobbin.core.base.JournalBackoff;
import dev.bobbin.protocol.CborSerializable;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.FinalApplicationStatus;
import dev.bobbin.protocol.Ids;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;

/**
 * An application: the user its id was issued to, its submission, its state machine and its
 * attempts. The command handler decides, the event handler applies; the scheduler hears of every
 * attempt that starts and every application that ends, after the event is durable.
 */
public final class ApplicationEntity
    extends EventSourcedBehaviorWithEnforcedReplies<
        ApplicationEntity.Command, ApplicationEntity.Event, ApplicationEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY =
      EntityTypeKey.create(Command.class, "Application");
  public static final String TAG = "app";
  /** YARN's diagnostics for an application its lifetime monitor killed. */
  public static final String LIFETIME_EXCEEDED =
      "Application is killed by ResourceManager as it has exceeded the lifetime period.";

  // Commands

  public sealed interface Command extends CborSerializable {}

  /**
   * Gives this id to {@code caller}, as {@code new-application} does: only that caller may submit
   * under it ({@link SubmitVerdict}). Asked again for the same caller, it answers without a write.
   */
  public record Issue(String caller, ActorRef<StatusReply<Done>> replyTo) implements Command {}

  /**
   * How a submission under this id would be received, asked before anything of it is written (its
   * queue's admission comes before {@link Submit}).
   */
  public record CheckSubmit(Submission submission, ActorRef<SubmitChecked> replyTo) implements Command {}

  /** @param report the application as it is, for a {@link SubmitVerdict#REPEATED} submission; else null */
  public record SubmitChecked(SubmitVerdict verdict, AppReport report) implements CborSerializable {}

  /** Refused with the verdict's reason unless {@link SubmitVerdict#admits()}; a repeat writes nothing. */
  public record Submit(Submission submission, ActorRef<StatusReply<AppReport>> replyTo)
      implements Command {}

  public record AssignAmContainer(
      String attemptId, String containerId, String nodeId, String nodeHttpAddress,
      ActorRef<StatusReply<Done>> replyTo) implements Command {}

  public record RegisterAm(
      String attemptId, String host, int rpcPort, String trackingUrl,
      ActorRef<StatusReply<AppReport>> replyTo) implements Command {}

  public record UnregisterAm(
      String attemptId, FinalApplicationStatus finalStatus, String diagnostics, String trackingUrl,
      ActorRef<StatusReply<AppReport>> replyTo) implements Command {}

  public record AmContainerFinished(
      String attemptId, int exitStatus, String diagnostics, ActorRef<StatusReply<Done>> replyTo)
      implements Command {}

  public record Kill(String diagnostics, ActorRef<StatusReply<AppReport>> replyTo)
      implements Command {}

  /**
   * Runs the application at {@code priority} from now on (already capped by the policy). An ended
   * application answers as it is, unchanged, as YARN does.
   */
  public record UpdatePriority(int priority, ActorRef<StatusReply<AppReport>> replyTo) implements Command {}

  /**
   * Runs the application in the leaf {@code queue} (a path below root) from now on; the target's
   * entity has admitted it already. Only an ACCEPTED or RUNNING application moves, as in YARN.
   */
  public record MoveToQueue(String queue, ActorRef<StatusReply<AppReport>> replyTo) implements Command {}

  /**
   * Records that a move to {@code queue} begins, before its entity is asked to admit the
   * application, so that the queue is let go of when the application ends however the move ends.
   * Refused as {@link MoveToQueue} is; a move to the queue it is in writes nothing.
   */
  public record PrepareMove(String queue, ActorRef<StatusReply<Done>> replyTo) implements Command {}

  public record Get(ActorRef<StatusReply<AppReport>> replyTo) implements Command {}

  /**
   * Sets the application's LIFETIME to end at {@code expiryTime} (ms since the epoch), as YARN's
   * {@code updateApplicationTimeouts}: refused if that is already past or the application is not
   * yet or no longer running; an ended application answers as it is.
   */
  public record UpdateLifetime(long expiryTime, ActorRef<StatusReply<AppReport>> replyTo) implements Command {}

  /** Asked by the scheduler's lifetime monitor: kills the application if its lifetime has run out by now. */
  public record ExpireLifetime(ActorRef<StatusReply<Done>> replyTo) implements Command {}

  /**
   * Asked by the scheduler for an application a registering NodeManager reports but the scheduler
   * does not follow: ended (or never known) means the node should clean it up.
   */
  public record GetEnded(ActorRef<Ended> replyTo) implements Command {}

  public record Ended(String appId, boolean ended) implements CborSerializable {}

  /**
   * The attempt's AM has the completions of these containers: a recovered scheduler need not
   * deliver them again. One event for all the completions an allocate response carried, instead
   * of one per container.
   */
  public record RecordDeliveries(String attemptId, List<String> containerIds, ActorRef<StatusReply<Done>> replyTo)
      implements Command {}

  /** {@code suffered}: this application lost the container; otherwise it was starved and gains it. */
  public record RecordPreemption(PreemptionRecord record, boolean suffered, ActorRef<StatusReply<Done>> replyTo)
      implements Command {}

  /** The policy no longer takes back a container this application was to lose: it stops counting. */
  public record CancelPreemption(PreemptionRecord record, ActorRef<StatusReply<Done>> replyTo) implements Command {}

  // Events

  public sealed interface Event extends CborSerializable {}

  /** The id went to {@code caller}; nothing of the application shows until it is submitted. */
  public record Issued(String caller, long time) implements Event {}

  public record Submitted(Submission submission, long time) implements Event {}

  public record AttemptStarted(String attemptId, int number, long time) implements Event {}

  public record AmContainerAssigned(
      String attemptId, String containerId, String nodeId, String nodeHttpAddress) implements Event {}

  public record AmRegistered(String attemptId, String host, int rpcPort, String trackingUrl)
      implements Event {}

  public record AmUnregistered(
      String attemptId, FinalApplicationStatus finalStatus, String diagnostics, String trackingUrl,
      long time) implements Event {}

  public record AttemptFailed(String attemptId, int exitStatus, String diagnostics, long time)
      implements Event {}

  public record AppFailed(String diagnostics, long time) implements Event {}

  public record AppKilled(String diagnostics, long time) implements Event {}

  public record PriorityUpdated(int priority) implements Event {}

  /** @param lifetime the new {@link Submission#lifetime()}: ms from the submission */
  public record LifetimeUpdated(long lifetime) implements Event {}

  public record QueueMoved(String from, String to) implements Event {}

  public record MovePrepared(String to) implements Event {}

  public record PreemptionSuffered(PreemptionRecord record) implements Event {}

  public record PreemptionCaused(PreemptionRecord record) implements Event {}

  public record PreemptionCancelled(PreemptionRecord record) implements Event {}

  /**
   * Changes nothing in the application's state: it is read by the scheduler's recovery
   * ({@code JournalRecovery}), which marks these containers' completions delivered.
   */
  public record CompletionsDelivered(String attemptId, List<String> containerIds) implements Event {}

  // State

  /**
   * @param issuedTo the user this id was issued to; null before that (and in journals from before
   *     ids were issued, where the submission's user owns it)
   * @param moveQueues every queue a move of the application named, as its target or its source: a
   *     queue may still count it after a move was cut short (a member died between the target's
   *     admission and the move's record, or before the source let it go), so it leaves them all
   *     when it ends; states listed before moves were recorded hold none
   */
  public record State(
      String appId,
      String issuedTo,
      Submission submission,
      AppState state,
      FinalApplicationStatus finalStatus,
      String diagnostics,
      long startedTime,
      long finishedTime,
      List<Attempt> attempts,
      PreemptionHistory preemptions,
      Set<String> moveQueues) implements CborSerializable {

    public State {
      moveQueues = moveQueues == null ? Set.of() : Set.copyOf(moveQueues);
    }

    public static State empty(String appId) {
      return new State(appId, null, null, AppState.NEW, FinalApplicationStatus.UNDEFINED, "", 0, 0, List.of(),
          PreemptionHistory.NONE, Set.of());
    }

    public boolean exists() {
      return submission != null;
    }

    SubmitVerdict verdict(Submission offered) {
      return SubmitVerdict.of(issuedTo, submission, offered);
    }

    public Attempt currentAttempt() {
      return attempts.isEmpty() ? null : attempts.get(attempts.size() - 1);
    }

    boolean isCurrent(String attemptId) {
      Attempt a = currentAttempt();
      return a != null && a.attemptId().equals(attemptId);
    }

    public AppReport report() {
      Submission s = submission;
      return new AppReport(appId, s.user(), s.name(), s.queue(), state, finalStatus, diagnostics,
          s.applicationType(), s.tags(), s.priority(), startedTime, finishedTime, s.amResource(),
          s.maxAttempts(), attempts, preemptions, s.acls(), s.attemptFailuresValidityInterval(), lifetimeDeadline(),
          s.unmanagedAm());
    }

    /** When the application's lifetime runs out (ms since the epoch); 0 without one. */
    public long lifetimeDeadline() {
      return submission == null || submission.lifetime() <= 0 ? 0 : startedTime + submission.lifetime();
    }

    public State apply(Event event) {
      if (event instanceof Issued e) {
        return change(c -> c.issuedTo = e.caller());
      } else if (event instanceof Submitted e) {
        return change(c -> {
          c.submission = e.submission();
          c.state = ApplicationLifecycle.check(state, AppState.SUBMITTED);
          c.startedTime = e.time();
          c.finishedTime = 0;
        });
      } else if (event instanceof AttemptStarted e) {
        List<Attempt> next = new ArrayList<>(attempts);
        next.add(submission.unmanagedAm() ? Attempt.launched(e.attemptId(), e.number(), e.time())
            : Attempt.scheduled(e.attemptId(), e.number(), e.time()));
        return with(AppState.ACCEPTED, withoutExpiredAttempts(next, e.time()));
      } else if (event instanceof AmContainerAssigned e) {
        return with(state, replaceCurrent(currentAttempt().allocated(e.containerId(), e.nodeId(), e.nodeHttpAddress())));
      } else if (event instanceof AmRegistered e) {
        return with(AppState.RUNNING, replaceCurrent(currentAttempt().registered(e.host(), e.rpcPort(), e.trackingUrl())));
      } else if (event instanceof AmUnregistered e) {
        List<Attempt> next = replaceCurrent(currentAttempt().ended(AttemptState.FINISHED, e.time(),
            ExitStatus.INVALID, e.diagnostics(), e.trackingUrl()));
        return change(c -> {
          c.state = ApplicationLifecycle.check(state, AppState.FINISHED);
          c.finalStatus = e.finalStatus();
          c.diagnostics = e.diagnostics();
          c.finishedTime = e.time();
          c.attempts = next;
        });
      } else if (event instanceof AttemptFailed e) {
        return with(state, replaceCurrent(currentAttempt().ended(AttemptState.FAILED, e.time(),
            e.exitStatus(), e.diagnostics(), "")));
      } else if (event instanceof AppFailed e) {
        return finished(AppState.FAILED, FinalApplicationStatus.FAILED, e.diagnostics(), e.time(), AttemptState.FAILED);
      } else if (event instanceof AppKilled e) {
        return finished(AppState.KILLED, FinalApplicationStatus.KILLED, e.diagnostics(), e.time(), AttemptState.KILLED);
      } else if (event instanceof PriorityUpdated e) {
        return change(c -> c.submission = submission.withPriority(e.priority()));
      } else if (event instanceof LifetimeUpdated e) {
        return change(c -> c.submission = submission.withLifetime(e.lifetime()));
      } else if (event instanceof QueueMoved e) {
        return change(c -> {
          c.submission = submission.withQueue(e.to());
          c.moveQueues = withQueue(e.from());
        });
      } else if (event instanceof MovePrepared e) {
        return change(c -> c.moveQueues = withQueue(e.to()));
      } else if (event instanceof PreemptionSuffered e) {
        return change(c -> c.preemptions = preemptions.suffer(e.record()));
      } else if (event instanceof PreemptionCaused e) {
        return change(c -> c.preemptions = preemptions.cause(e.record()));
      } else if (event instanceof PreemptionCancelled e) {
        return change(c -> c.preemptions = preemptions.cancel(e.record()));
      } else if (event instanceof CompletionsDelivered) {
        return this;
      }
      throw new IllegalArgumentException("Unknown event " + event);
    }

    /**
     * With a validity interval, a service may fail over and over for months: as YARN's RM forgets
     * them from its store, the oldest attempts beyond the application's maximum go once they ended
     * before the interval, so they no longer count and the list stays bounded.
     */
    private List<Attempt> withoutExpiredAttempts(List<Attempt> list, long now) {
      long window = submission.attemptFailuresValidityInterval();
      int keep = Math.max(1, submission.maxAttempts());
      int drop = 0;
      while (window > 0 && list.size() - drop > keep) {
        Attempt oldest = list.get(drop);
        if (!oldest.state().isFinal() || oldest.finishTime() >= now - window) break;
        drop++;
      }
      return drop == 0 ? list : new ArrayList<>(list.subList(drop, list.size()));
    }

    /** This state with some fields changed by {@code edit}: a new field is added to {@link Change} alone. */
    private State change(Consumer<Change> edit) {
      Change c = new Change();
      edit.accept(c);
      return new State(appId, c.issuedTo, c.submission, c.state, c.finalStatus, c.diagnostics, c.startedTime,
          c.finishedTime, c.attempts, c.preemptions, c.moveQueues);
    }

    /** The fields an event may change, starting as they are. */
    private final class Change {
      String issuedTo = State.this.issuedTo;
      Submission submission = State.this.submission;
      AppState state = State.this.state;
      FinalApplicationStatus finalStatus = State.this.finalStatus;
      String diagnostics = State.this.diagnostics;
      long startedTime = State.this.startedTime;
      long finishedTime = State.this.finishedTime;
      List<Attempt> attempts = State.this.attempts;
      PreemptionHistory preemptions = State.this.preemptions;
      Set<String> moveQueues = State.this.moveQueues;
    }

    private Set<String> withQueue(String queue) {
      if (moveQueues.contains(queue)) return moveQueues;
      Set<String> next = new HashSet<>(moveQueues);
      next.add(queue);
      return next;
    }

    private State with(AppState next, List<Attempt> newAttempts) {
      return change(c -> {
        c.state = next == state ? state : ApplicationLifecycle.check(state, next);
        c.attempts = newAttempts;
      });
    }

    private State finished(AppState end, FinalApplicationStatus fin, String diag, long time, AttemptState attemptEnd) {
      List<Attempt> next = attempts;
      Attempt cur = currentAttempt();
      if (cur != null && !cur.state().isFinal()) {
        next = replaceCurrent(cur.ended(attemptEnd, time, cur.exitStatus(), diag, ""));
      }
      List<Attempt> ended = next;
      return change(c -> {
        c.state = ApplicationLifecycle.check(state, end);
        c.finalStatus = fin;
        c.diagnostics = diag;
        c.finishedTime = time;
        c.attempts = ended;
      });
    }

    private List<Attempt> replaceCurrent(Attempt a) {
      List<Attempt> next = new ArrayList<>(attempts);
      next.set(next.size() - 1, a);
      return List.copyOf(next);
    }
  }

  // Construction

  private final String appId;
  private final AppNotices scheduler;
  private final Clock clock;
  private final int snapshotEvery;

  private ApplicationEntity(String appId, AppNotices scheduler, Clock clock, int snapshotEvery) {
    super(PersistenceId.of(TYPE_KEY.name(), appId), JournalBackoff.STRATEGY);
    this.appId = appId;
    this.scheduler = scheduler;
    this.clock = clock;
    this.snapshotEvery = snapshotEvery;
  }

  public static Behavior<Command> create(
      String appId, AppNotices scheduler, Clock clock, int snapshotEvery) {
    return new ApplicationEntity(appId, scheduler, clock, snapshotEvery);
  }

  @Override
  public State emptyState() {
    return State.empty(appId);
  }

  // Command handlers

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder()
        .forAnyState()
        .onCommand(Issue.class, this::onIssue)
        .onCommand(CheckSubmit.class, (s, c) -> {
          SubmitVerdict v = s.verdict(c.submission());
          return Effect().reply(c.replyTo(), new SubmitChecked(v, v == SubmitVerdict.REPEATED ? s.report() : null));
        })
        .onCommand(Submit.class, this::onSubmit)
        .onCommand(AssignAmContainer.class, this::onAssignAmContainer)
        .onCommand(RegisterAm.class, this::onRegisterAm)
        .onCommand(UnregisterAm.class, this::onUnregisterAm)
        .onCommand(AmContainerFinished.class, this::onAmContainerFinished)
        .onCommand(Kill.class, this::onKill)
        .onCommand(UpdatePriority.class, this::onUpdatePriority)
        .onCommand(UpdateLifetime.class, this::onUpdateLifetime)
        .onCommand(ExpireLifetime.class, this::onExpireLifetime)
        .onCommand(MoveToQueue.class, this::onMoveToQueue)
        .onCommand(PrepareMove.class, this::onPrepareMove)
        .onCommand(RecordPreemption.class, this::onRecordPreemption)
        .onCommand(CancelPreemption.class, this::onCancelPreemption)
        .onCommand(RecordDeliveries.class, this::onRecordDeliveries)
        .onCommand(Get.class, (s, c) -> s.exists()
            ? Effect().reply(c.replyTo(), StatusReply.success(s.report()))
            : Effect().reply(c.replyTo(), notFound()))
        .onCommand(GetEnded.class, (s, c) -> Effect().reply(c.replyTo(),
            new Ended(appId, !s.exists() || s.state().isFinal())))
        .build();
  }

  private ReplyEffect<Event, State> onIssue(State s, Issue c) {
    if (!s.exists() && s.issuedTo() == null) {
      return Effect().persist(new Issued(c.caller(), clock.millis())).thenReply(c.replyTo(), ns -> StatusReply.ack());
    }
    if (!s.exists() && c.caller().equals(s.issuedTo())) return Effect().reply(c.replyTo(), StatusReply.ack());
    return Effect().reply(c.replyTo(), StatusReply.error("Application id " + appId + " was issued already"));
  }

  private ReplyEffect<Event, State> onSubmit(State s, Submit c) {
    SubmitVerdict verdict = s.verdict(c.submission());
    // As YARN's ClientRMService ("an earlier submitted application"): submitting again is not an
    // error, so a client, or the member retrying for it, may repeat a submission it got no answer to.
    if (verdict == SubmitVerdict.REPEATED) return Effect().reply(c.replyTo(), StatusReply.success(s.report()));
    if (verdict != SubmitVerdict.FRESH) {
      return Effect().reply(c.replyTo(),
          StatusReply.error(verdict.rejection(appId, c.submission().user()).getMessage()));
    }
    long now = clock.millis();
    String attemptId = Ids.attemptId(appId, 1);
    return Effect()
        .persist(List.of(new Submitted(c.submission(), now), new AttemptStarted(attemptId, 1, now)))
        .thenRun(this::attemptAdded)
        .thenRun(this::lifetimeChanged)
        .thenReply(c.replyTo(), ns -> StatusReply.success(ns.report()));
  }

  private ReplyEffect<Event, State> onAssignAmContainer(State s, AssignAmContainer c) {
    if (!s.exists() || s.state().isFinal() || !s.isCurrent(c.attemptId())) {
      return Effect().reply(c.replyTo(), StatusReply.error("Attempt " + c.attemptId() + " is not current"));
    }
    if (c.containerId().equals(s.currentAttempt().amContainerId())) {
      return Effect().reply(c.replyTo(), StatusReply.ack());
    }
    return Effect()
        .persist(new AmContainerAssigned(c.attemptId(), c.containerId(), c.nodeId(), c.nodeHttpAddress()))
        .thenReply(c.replyTo(), ns -> StatusReply.ack());
  }

  private ReplyEffect<Event, State> onRegisterAm(State s, RegisterAm c) {
    if (!s.exists() || !s.isCurrent(c.attemptId()) || s.state().isFinal()) {
      return Effect().reply(c.replyTo(), StatusReply.error(
          "Application doesn't exist in cache " + c.attemptId()));
    }
    if (s.currentAttempt().state() == AttemptState.RUNNING) {
      // A re-register after an RM restart or a lost reply: the registration stands.
      return Effect().reply(c.replyTo(), StatusReply.success(s.report()));
    }
    return Effect()
        .persist(new AmRegistered(c.attemptId(), c.host(), c.rpcPort(), c.trackingUrl()))
        .thenReply(c.replyTo(), ns -> StatusReply.success(ns.report()));
  }

  private ReplyEffect<Event, State> onUnregisterAm(State s, UnregisterAm c) {
    if (!s.exists() || !s.isCurrent(c.attemptId())) {
      return Effect().reply(c.replyTo(), StatusReply.error(
          "Application doesn't exist in cache " + c.attemptId()));
    }
    if (s.state().isFinal()) {
      return Effect().reply(c.replyTo(), StatusReply.success(s.report()));
    }
    FinalApplicationStatus fin = c.finalStatus() == null ? FinalApplicationStatus.UNDEFINED : c.finalStatus();
    return Effect()
        .persist(new AmUnregistered(c.attemptId(), fin, nullToEmpty(c.diagnostics()), nullToEmpty(c.trackingUrl()), clock.millis()))
        .thenRun(ns -> scheduler.appEnded(appId, ns.state()))
        .thenReply(c.replyTo(), ns -> StatusReply.success(ns.report()));
  }

  private ReplyEffect<Event, State> onAmContainerFinished(State s, AmContainerFinished c) {
    if (!s.exists() || s.state().isFinal() || !s.isCurrent(c.attemptId())
        || s.currentAttempt().state().isFinal()) {
      return Effect().reply(c.replyTo(), StatusReply.ack());
    }
    long now = clock.millis();
    Attempt cur = s.currentAttempt();
    String diag = "AM Container for " + c.attemptId() + " exited with exitCode: " + c.exitStatus()
        + (c.diagnostics().isEmpty() ? "" : ". " + c.diagnostics());
    String notCounted = AttemptFailures.notCountedBecause(c.exitStatus());
    if (notCounted != null) diag += ". Not counted against the application's attempts: " + notCounted;
    List<Event> events = new ArrayList<>();
    AttemptFailed failed = new AttemptFailed(c.attemptId(), c.exitStatus(), diag, now);
    events.add(failed);
    long window = s.submission().attemptFailuresValidityInterval();
    int counted = AttemptFailures.counted(s.apply(failed).attempts(), window, now);
    // As YARN: the RM cannot start an unmanaged AM again, so its first failed attempt fails the application.
    boolean retry = counted < s.submission().maxAttempts() && !s.submission().unmanagedAm();
    String nextAttempt = Ids.attemptId(appId, cur.number() + 1);
    if (retry) {
      events.add(new AttemptStarted(nextAttempt, cur.number() + 1, now));
    } else if (s.submission().unmanagedAm()) {
      events.add(new AppFailed("Unmanaged application " + appId + " failed due to " + diag
          + ". Failing the application.", now));
    } else {
      events.add(new AppFailed("Application " + appId + " failed " + s.submission().maxAttempts()
          + " times" + (window > 0 ? " in previous " + window + " milliseconds" : "") + " due to " + diag
          + ". Failing the application.", now));
    }
    return Effect()
        .persist(events)
        .thenRun(ns -> {
          scheduler.attemptEnded(appId, c.attemptId());
          if (retry) attemptAdded(ns);
          else scheduler.appEnded(appId, ns.state());
        })
        .thenReply(c.replyTo(), ns -> StatusReply.ack());
  }

  private ReplyEffect<Event, State> onKill(State s, Kill c) {
    if (!s.exists()) return Effect().reply(c.replyTo(), notFound());
    if (s.state().isFinal()) return Effect().reply(c.replyTo(), StatusReply.success(s.report()));
    String diag = c.diagnostics() == null || c.diagnostics().isBlank()
        ? "Application killed by user." : c.diagnostics();
    return Effect()
        .persist(new AppKilled(diag, clock.millis()))
        .thenRun(ns -> scheduler.appEnded(appId, ns.state()))
        .thenReply(c.replyTo(), ns -> StatusReply.success(ns.report()));
  }

  private ReplyEffect<Event, State> onUpdatePriority(State s, UpdatePriority c) {
    if (!s.exists()) return Effect().reply(c.replyTo(), notFound());
    if (s.state().isFinal() || s.submission().priority() == c.priority()) {
      return Effect().reply(c.replyTo(), StatusReply.success(s.report()));
    }
    // Only an application the scheduler follows has a priority to change (YARN's ACCEPTED and RUNNING).
    if (s.state() != AppState.ACCEPTED && s.state() != AppState.RUNNING) {
      return Effect().reply(c.replyTo(), StatusReply.error(
          "Application in " + s.state() + " state cannot update priority."));
    }
    return Effect()
        .persist(new PriorityUpdated(c.priority()))
        .thenRun(ns -> scheduler.priorityChanged(appId, c.priority()))
        .thenReply(c.replyTo(), ns -> StatusReply.success(ns.report()));
  }

  private ReplyEffect<Event, State> onUpdateLifetime(State s, UpdateLifetime c) {
    if (!s.exists()) return Effect().reply(c.replyTo(), notFound());
    if (s.state().isFinal()) return Effect().reply(c.replyTo(), StatusReply.success(s.report()));
    if (s.state() != AppState.SUBMITTED && s.state() != AppState.ACCEPTED && s.state() != AppState.RUNNING) {
      return Effect().reply(c.replyTo(), StatusReply.error(
          "Application is in " + s.state() + " state; its timeouts cannot be updated."));
    }
    long now = clock.millis();
    if (c.expiryTime() < now) {
      return Effect().reply(c.replyTo(), StatusReply.error("Expire time is less than current time, current-time="
          + Instant.ofEpochMilli(now) + " expire-time=" + Instant.ofEpochMilli(c.expiryTime())));
    }
    if (c.expiryTime() == s.lifetimeDeadline()) return Effect().reply(c.replyTo(), StatusReply.success(s.report()));
    return Effect()
        .persist(new LifetimeUpdated(c.expiryTime() - s.startedTime()))
        .thenRun(this::lifetimeChanged)
        .thenReply(c.replyTo(), ns -> StatusReply.success(ns.report()));
  }

  private ReplyEffect<Event, State> onExpireLifetime(State s, ExpireLifetime c) {
    long deadline = s.exists() ? s.lifetimeDeadline() : 0;
    if (s.state().isFinal() || deadline <= 0 || clock.millis() < deadline) {
      return Effect().reply(c.replyTo(), StatusReply.ack());
    }
    return Effect()
        .persist(new AppKilled(LIFETIME_EXCEEDED, clock.millis()))
        .thenRun(ns -> scheduler.appEnded(appId, ns.state()))
        .thenReply(c.replyTo(), ns -> StatusReply.ack());
  }

  private ReplyEffect<Event, State> onPrepareMove(State s, PrepareMove c) {
    if (!s.exists()) return Effect().reply(c.replyTo(), notFound());
    if (s.state() != AppState.ACCEPTED && s.state() != AppState.RUNNING) {
      return Effect().reply(c.replyTo(), StatusReply.error("App in " + s.state() + " state cannot be moved."));
    }
    if (s.submission().queue().equals(c.queue()) || s.moveQueues().contains(c.queue())) {
      return Effect().reply(c.replyTo(), StatusReply.ack());
    }
    return Effect().persist(new MovePrepared(c.queue())).thenReply(c.replyTo(), ns -> StatusReply.ack());
  }

  private ReplyEffect<Event, State> onMoveToQueue(State s, MoveToQueue c) {
    if (!s.exists()) return Effect().reply(c.replyTo(), notFound());
    if (s.state() != AppState.ACCEPTED && s.state() != AppState.RUNNING) {
      return Effect().reply(c.replyTo(), StatusReply.error("App in " + s.state() + " state cannot be moved."));
    }
    if (s.submission().queue().equals(c.queue())) return Effect().reply(c.replyTo(), StatusReply.success(s.report()));
    return Effect()
        .persist(new QueueMoved(s.submission().queue(), c.queue()))
        .thenRun(ns -> scheduler.queueMoved(appId, c.queue()))
        .thenReply(c.replyTo(), ns -> StatusReply.success(ns.report()));
  }

  private ReplyEffect<Event, State> onRecordPreemption(State s, RecordPreemption c) {
    if (!s.exists()) return Effect().reply(c.replyTo(), notFound());
    Event e = c.suffered() ? new PreemptionSuffered(c.record()) : new PreemptionCaused(c.record());
    return Effect().persist(e).thenReply(c.replyTo(), ns -> StatusReply.ack());
  }

  private ReplyEffect<Event, State> onCancelPreemption(State s, CancelPreemption c) {
    if (!s.exists()) return Effect().reply(c.replyTo(), notFound());
    if (!s.preemptions().hasSuffered(c.record())) return Effect().reply(c.replyTo(), StatusReply.ack());
    return Effect().persist(new PreemptionCancelled(c.record())).thenReply(c.replyTo(), ns -> StatusReply.ack());
  }

  private ReplyEffect<Event, State> onRecordDeliveries(State s, RecordDeliveries c) {
    if (!s.exists()) return Effect().reply(c.replyTo(), notFound());
    // Once the application has ended, its completed containers are of no interest to a recovery.
    if (s.state().isFinal() || c.containerIds().isEmpty()) return Effect().reply(c.replyTo(), StatusReply.ack());
    return Effect().persist(new CompletionsDelivered(c.attemptId(), List.copyOf(c.containerIds())))
        .thenReply(c.replyTo(), ns -> StatusReply.ack());
  }

  private void attemptAdded(State s) {
    scheduler.attemptAdded(appId, s.currentAttempt().attemptId(), s.submission(), s.startedTime());
  }

  private void lifetimeChanged(State s) {
    if (s.lifetimeDeadline() > 0) scheduler.lifetimeChanged(appId, s.lifetimeDeadline());
  }

  private <T> StatusReply<T> notFound() {
    return StatusReply.error("app with id: " + appId + " not found");
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }

  // Event handler, tagging, retention

  @Override
  public EventHandler<State, Event> eventHandler() {
    return newEventHandlerBuilder().forAnyState().onAnyEvent(State::apply);
  }

  @Override
  public Set<String> tagsFor(Event event) {
    // The application list (AppDirectory) reads tagged events; an issued id and deliveries change
    // nothing it shows.
    return event instanceof CompletionsDelivered || event instanceof Issued ? Set.of() : Set.of(TAG);
  }

  @Override
  public RetentionCriteria retentionCriteria() {
    return RetentionCriteria.snapshotEvery(snapshotEvery, 2);
  }
}
