package dev.bobbin.am;

import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.FinalApplicationStatus;
import dev.bobbin.protocol.am.AllocateRequest;
import dev.bobbin.protocol.am.AllocateResponse;
import dev.bobbin.protocol.am.AmCommand;
import dev.bobbin.protocol.am.Container;
import dev.bobbin.protocol.am.FinishAmRequest;
import dev.bobbin.protocol.am.FinishAmResponse;
import dev.bobbin.protocol.am.RegisterAmRequest;
import dev.bobbin.protocol.am.RegisterAmResponse;
import dev.bobbin.protocol.client.AmProtocolClient;
import dev.bobbin.protocol.client.CallException;
import dev.bobbin.protocol.client.Failover;
import dev.bobbin.protocol.client.RemoteErrorException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.pattern.StatusReply;

/**
 * The AM side of the ApplicationMasterProtocol, as an actor: registers on start, heartbeats
 * {@code allocate} on a timer carrying asks, releases and progress, and unregisters on request.
 * Allocated containers and completed statuses go to the listener as {@link AmEvent}s.
 *
 * <p>Asks follow Hadoop's AMRMClient: the client keeps every outstanding {@link ContainerRequest},
 * sends the absolute total of a request key only when it changed, and removes the matching request
 * when a container arrives. When the RM has lost the registration (AM_RESYNC, or
 * ApplicationMasterNotRegisteredException) it registers again and re-sends every outstanding ask
 * and every release not yet seen completed. A failed call (connection error, timeout, 5xx) is
 * retried unchanged at the next RM address: at once when no connection could be made, else after a
 * bounded backoff; the member that answered is kept for the calls after it. An allocate resent with
 * the same responseId returns the response that was lost, so nothing is delivered twice; a register
 * the RM already had is answered as the first was.
 */
public final class AmClient {
  static final String NOT_REGISTERED = "ApplicationMasterNotRegisteredException";
  static final String ATTEMPT_NOT_FOUND = "ApplicationAttemptNotFoundException";
  static final String INVALID_REQUEST = "InvalidApplicationMasterRequestException";
  // Re-registering this often without one successful call means the RM is not keeping our state.
  private static final int MAX_RESYNCS_IN_A_ROW = 5;
  private static final Object HEARTBEAT = "heartbeat";
  private static final Object RETRY = "retry";

  public sealed interface Command {}

  /** Adds one container to the outstanding asks. */
  public record AddContainerRequest(ContainerRequest request) implements Command {}

  /** Withdraws one outstanding request equal to this one (if any). */
  public record RemoveContainerRequest(ContainerRequest request) implements Command {}

  /** Gives an allocated container back; sent to the RM once, again only after a resync. */
  public record ReleaseAssignedContainer(String containerId) implements Command {}

  /** Progress in [0,1] reported with every heartbeat. */
  public record SetProgress(float progress) implements Command {}

  /**
   * Stops heartbeating and unregisters, retrying until the RM confirms. Replies ack once the RM
   * made the final status durable, or an error when it could not.
   */
  public record Unregister(
      FinalApplicationStatus finalStatus,
      String diagnostics,
      String trackingUrl,
      ActorRef<StatusReply<Done>> replyTo)
      implements Command {}

  private record Heartbeat() implements Command {}

  private record RetryCall() implements Command {}

  /** An answer from the RM: the response, or why there is none. */
  private record RegisterReplied(RegisterAmResponse response, CallException failure) implements Command {}

  private record AllocateReplied(AllocateResponse response, CallException failure) implements Command {}

  private record FinishReplied(FinishAmResponse response, CallException failure) implements Command {}

  public static Behavior<Command> create(AmClientSettings settings, ActorRef<AmEvent> listener) {
    return create(settings, listener,
        AmProtocolClient.create(settings.amToken(), settings.connectTimeout(), settings.requestTimeout(), settings.tls()));
  }

  /** With the caller's client, e.g. one whose transport has TLS settings of its own. */
  public static Behavior<Command> create(AmClientSettings settings, ActorRef<AmEvent> listener, AmProtocolClient rm) {
    return Behaviors.setup(
        ctx -> Behaviors.withTimers(timers -> new AmClient(ctx, timers, settings, listener, rm).start()));
  }

  private enum Phase {
    REGISTERING,
    RUNNING,
    UNREGISTERING
  }

  private record PendingFinish(FinishAmRequest request, List<ActorRef<StatusReply<Done>>> replyTo) {}

  private final ActorContext<Command> ctx;
  private final TimerScheduler<Command> timers;
  private final AmClientSettings settings;
  private final ActorRef<AmEvent> listener;
  private final AmProtocolClient rm;

  private Phase phase = Phase.REGISTERING;
  private boolean registeredOnce;
  private Failover failover;
  private AskTable asks = AskTable.empty();
  private final Set<String> releasesToSend = new LinkedHashSet<>();
  private final Set<String> releasedNotCompleted = new LinkedHashSet<>();
  /**
   * Containers whose completion the listener has had. After a failover the RM delivers again the
   * completions it cannot tell were received; the listener hears of each one once.
   */
  private final Set<String> completedSeen = new java.util.HashSet<>();
  private float progress;
  private int lastResponseId;
  /** Kept until answered, so a retry resends exactly the same call. */
  private AllocateRequest allocateInFlight;
  /** True from sending a call until its answer is handled (including backoff before a retry). */
  private boolean callInFlight;
  /** Heartbeats stopped after a rejection or giving up; unregistering is still possible. */
  private boolean broken;
  private PendingFinish finish;
  private long firstFailureNanos;
  private int resyncsInARow;

  private AmClient(
      ActorContext<Command> ctx,
      TimerScheduler<Command> timers,
      AmClientSettings settings,
      ActorRef<AmEvent> listener,
      AmProtocolClient rm) {
    this.ctx = ctx;
    this.timers = timers;
    this.settings = settings;
    this.listener = listener;
    this.rm = rm;
    this.failover = Failover.over(settings.rmAddresses(), settings.initialBackoff(), settings.maxBackoff());
  }

  private Behavior<Command> start() {
    ctx.getLog().info("Registering attempt {} with the RM at {}", settings.attemptId(), address());
    sendRegister();
    return active();
  }

  private Behavior<Command> active() {
    return Behaviors.receive(Command.class)
        .onMessage(AddContainerRequest.class, m -> onAsksChanged(asks.add(m.request())))
        .onMessage(RemoveContainerRequest.class, m -> onAsksChanged(asks.remove(m.request())))
        .onMessage(ReleaseAssignedContainer.class, this::onRelease)
        .onMessage(SetProgress.class, this::onProgress)
        .onMessage(Unregister.class, this::onUnregister)
        .onMessage(Heartbeat.class, m -> onHeartbeat())
        .onMessage(RetryCall.class, m -> onRetry())
        .onMessage(RegisterReplied.class, this::onRegisterReplied)
        .onMessage(AllocateReplied.class, this::onAllocateReplied)
        .onMessage(FinishReplied.class, this::onFinishReplied)
        .build();
  }

  /** After unregistering or shutdown: answers Unregister with how it ended, ignores the rest. */
  private Behavior<Command> closed(StatusReply<Done> outcome) {
    timers.cancelAll();
    return Behaviors.receive(Command.class)
        .onMessage(Unregister.class, m -> {
          m.replyTo().tell(outcome);
          return Behaviors.same();
        })
        .onAnyMessage(m -> Behaviors.same())
        .build();
  }

  // ---- commands from the AM

  private Behavior<Command> onAsksChanged(AskTable next) {
    asks = next;
    return Behaviors.same();
  }

  private Behavior<Command> onRelease(ReleaseAssignedContainer m) {
    if (releasedNotCompleted.add(m.containerId())) releasesToSend.add(m.containerId());
    return Behaviors.same();
  }

  private Behavior<Command> onProgress(SetProgress m) {
    float p = m.progress();
    progress = Float.isNaN(p) || p < 0 ? 0 : Math.min(p, 1);
    return Behaviors.same();
  }

  private Behavior<Command> onUnregister(Unregister m) {
    if (finish != null) {
      List<ActorRef<StatusReply<Done>>> all = new ArrayList<>(finish.replyTo());
      all.add(m.replyTo());
      finish = new PendingFinish(finish.request(), List.copyOf(all));
      return Behaviors.same();
    }
    finish = new PendingFinish(
        new FinishAmRequest(m.finalStatus(), m.diagnostics(), m.trackingUrl()), List.of(m.replyTo()));
    timers.cancel(HEARTBEAT);
    if (!callInFlight) startFinish();
    return Behaviors.same();
  }

  // ---- calls to the RM

  private void sendRegister() {
    callInFlight = true;
    RegisterAmRequest body =
        new RegisterAmRequest(settings.host(), settings.rpcPort(), settings.trackingUrl());
    pipe(rm.register(address(), body), RegisterReplied::new);
  }

  private void sendAllocate() {
    if (allocateInFlight == null) {
      AskTable.Drained drained = asks.drain();
      asks = drained.table();
      allocateInFlight =
          new AllocateRequest(lastResponseId, progress, drained.asks(), List.copyOf(releasesToSend));
      releasesToSend.clear();
    }
    callInFlight = true;
    pipe(rm.allocate(address(), allocateInFlight), AllocateReplied::new);
  }

  private void startFinish() {
    phase = Phase.UNREGISTERING;
    ctx.getLog().info(
        "Unregistering attempt {} with final status {}",
        settings.attemptId(), finish.request().finalApplicationStatus());
    sendFinish();
  }

  private void sendFinish() {
    callInFlight = true;
    pipe(rm.finish(address(), finish.request()), FinishReplied::new);
  }

  private <T> void pipe(CompletionStage<T> call, BiFunction<T, CallException, Command> wrap) {
    ctx.pipeToSelf(call, (response, error) -> wrap.apply(response, error == null ? null : CallException.of(error)));
  }

  // ---- timers

  private Behavior<Command> onHeartbeat() {
    if (phase == Phase.RUNNING && !callInFlight && !broken && finish == null) sendAllocate();
    return Behaviors.same();
  }

  private Behavior<Command> onRetry() {
    switch (phase) {
      case REGISTERING -> sendRegister();
      case RUNNING -> sendAllocate();
      case UNREGISTERING -> sendFinish();
    }
    return Behaviors.same();
  }

  // ---- answers from the RM

  private Behavior<Command> onRegisterReplied(RegisterReplied m) {
    if (m.failure() == null) return registered(m.response());
    if (m.failure() instanceof RemoteErrorException r
        && INVALID_REQUEST.equals(r.exception())
        && r.remoteMessage().contains("already registered")) {
      // Our earlier register went through but its answer was lost on the way back.
      ctx.getLog().warn("RM says attempt {} is already registered; continuing", settings.attemptId());
      return registered(new RegisterAmResponse(null, null, List.of()));
    }
    return callFailed("register", m.failure());
  }

  private Behavior<Command> registered(RegisterAmResponse response) {
    callSucceeded();
    boolean afterResync = registeredOnce;
    registeredOnce = true;
    lastResponseId = 0;
    allocateInFlight = null;
    if (afterResync) {
      asks = asks.markAllUnsent();
      releasesToSend.addAll(releasedNotCompleted);
    }
    phase = Phase.RUNNING;
    ctx.getLog().info(
        "Attempt {} registered{} at {}: queue {}, maximum container {}, {} containers from earlier attempts",
        settings.attemptId(), afterResync ? " again" : "", address(), response.queue(),
        response.maximumCapability(), response.containersFromPreviousAttempts().size());
    listener.tell(new AmEvent.Registered(response, afterResync));
    if (finish != null) startFinish();
    else if (!broken) sendAllocate();
    return Behaviors.same();
  }

  private Behavior<Command> onAllocateReplied(AllocateReplied m) {
    if (m.failure() != null) return callFailed("allocate", m.failure());
    callSucceeded();
    resyncsInARow = 0;
    allocateInFlight = null;
    AllocateResponse response = m.response();
    if (response.responseId() == lastResponseId) {
      ctx.getLog().debug("Ignoring allocate response {} already handled", response.responseId());
    } else {
      lastResponseId = response.responseId();
      deliver(response);
      if (response.amCommand() == AmCommand.AM_RESYNC) return resync("RM sent AM_RESYNC");
      if (response.amCommand() == AmCommand.AM_SHUTDOWN) return shutDown("RM sent AM_SHUTDOWN");
    }
    if (finish != null) startFinish();
    else timers.startSingleTimer(HEARTBEAT, new Heartbeat(), settings.heartbeatInterval());
    return Behaviors.same();
  }

  private void deliver(AllocateResponse response) {
    List<Container> allocated = response.allocatedContainers();
    if (!allocated.isEmpty()) {
      for (Container c : allocated) asks = asks.allocated(c);
      ctx.getLog().info(
          "Allocated {} containers: {}; {} still outstanding",
          allocated.size(), allocated.stream().map(Container::id).toList(), asks.outstandingCount());
      listener.tell(new AmEvent.ContainersAllocated(allocated));
    }
    List<ContainerStatus> completed = response.completedContainerStatuses().stream()
        .filter(s -> completedSeen.add(s.containerId()))
        .toList();
    if (!completed.isEmpty()) {
      for (ContainerStatus s : completed) {
        releasedNotCompleted.remove(s.containerId());
        releasesToSend.remove(s.containerId());
      }
      listener.tell(new AmEvent.ContainersCompleted(completed));
    }
  }

  private Behavior<Command> onFinishReplied(FinishReplied m) {
    if (m.failure() != null) return callFailed("finish", m.failure());
    callSucceeded();
    if (!m.response().isUnregistered()) {
      // The RM has not yet made the final state durable; ask again shortly.
      callInFlight = true;
      timers.startSingleTimer(RETRY, new RetryCall(), settings.heartbeatInterval());
      return Behaviors.same();
    }
    FinalApplicationStatus status = finish.request().finalApplicationStatus();
    ctx.getLog().info("Attempt {} unregistered with final status {}", settings.attemptId(), status);
    listener.tell(new AmEvent.Unregistered(status));
    finish.replyTo().forEach(r -> r.tell(StatusReply.ack()));
    return closed(StatusReply.ack());
  }

  // ---- failures

  private Behavior<Command> callFailed(String call, CallException failure) {
    if (!(failure instanceof RemoteErrorException r)) return retryElsewhere(call, failure, failure.getMessage());
    if (NOT_REGISTERED.equals(r.exception())) return resync(call + " answered " + r.exception());
    if (ATTEMPT_NOT_FOUND.equals(r.exception())) return shutDown(r.exception() + ": " + r.remoteMessage());
    if (r.worthTryingAnotherServer()) return retryElsewhere(call, r, r.describe());
    return rejected(call + " rejected by the RM: " + r.describe());
  }

  private Behavior<Command> resync(String reason) {
    callSucceeded();
    if (++resyncsInARow > MAX_RESYNCS_IN_A_ROW) {
      return rejected("RM lost the registration " + MAX_RESYNCS_IN_A_ROW + " times in a row (" + reason + ")");
    }
    ctx.getLog().warn("Re-registering attempt {}: {}", settings.attemptId(), reason);
    phase = Phase.REGISTERING;
    allocateInFlight = null;
    timers.cancel(HEARTBEAT);
    sendRegister();
    return Behaviors.same();
  }

  private Behavior<Command> shutDown(String reason) {
    ctx.getLog().warn("Attempt {} must shut down: {}", settings.attemptId(), reason);
    listener.tell(new AmEvent.ShutdownRequested(reason));
    StatusReply<Done> outcome = StatusReply.error("Cannot unregister: " + reason);
    if (finish != null) finish.replyTo().forEach(r -> r.tell(outcome));
    return closed(outcome);
  }

  private Behavior<Command> rejected(String reason) {
    callSucceeded();
    return stopHeartbeating(reason);
  }

  private Behavior<Command> stopHeartbeating(String reason) {
    callInFlight = false;
    broken = true;
    timers.cancel(HEARTBEAT);
    ctx.getLog().error("Attempt {}: {}", settings.attemptId(), reason);
    listener.tell(new AmEvent.Failed(reason));
    if (finish == null) return Behaviors.same();
    if (phase != Phase.UNREGISTERING) {
      // The AM already asked to unregister: still try, with a fresh period of retries.
      startFinish();
      return Behaviors.same();
    }
    StatusReply<Done> outcome = StatusReply.error("Could not unregister: " + reason);
    finish.replyTo().forEach(r -> r.tell(outcome));
    return closed(outcome);
  }

  private Behavior<Command> retryElsewhere(String call, CallException failure, String reason) {
    long now = System.nanoTime();
    if (failover.consecutiveFailures() == 0) firstFailureNanos = now;
    String failed = address();
    failover = failover.afterFailure(failure);
    if (now - firstFailureNanos > settings.giveUpAfter().toNanos()) {
      failover = failover.afterSuccess();
      return stopHeartbeating(
          "RM unreachable at " + settings.rmAddresses() + " for " + settings.giveUpAfter() + ": " + reason);
    }
    Duration delay = failover.retryDelay();
    ctx.getLog().warn(
        "RM call {} to {} failed ({}); trying {} in {} ms", call, failed, reason, address(), delay.toMillis());
    timers.startSingleTimer(RETRY, new RetryCall(), delay);
    return Behaviors.same();
  }

  private void callSucceeded() {
    callInFlight = false;
    failover = failover.afterSuccess();
  }

  private String address() {
    return failover.current();
  }
}
