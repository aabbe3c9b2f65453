package dev.bobbin.core.scheduler;

import dev.bobbin.config.fair.Placement;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.bobbin.core.app.AppState;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.core.policy.PolicyConfig;
import dev.bobbin.core.policy.SchedulerView;
import dev.bobbin.protocol.CborSerializable;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.am.AllocateRequest;
import dev.bobbin.protocol.am.AllocateResponse;
import dev.bobbin.protocol.am.RegisterAmResponse;
import dev.bobbin.protocol.node.NodeHeartbeatRequest;
import dev.bobbin.protocol.node.NodeHeartbeatResponse;
import dev.bobbin.protocol.node.UnregisterNodeResponse;
import java.util.List;
import java.util.Set;
import java.util.Map;
import org.apache.pekko.Done;
import org.apache.pekko.actor.NoSerializationVerificationNeeded;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.pattern.StatusReply;

/** What the scheduler of a partition ({@link Scheduler}) is told and asked, and what it answers. */
public final class SchedulerProtocol {
  private SchedulerProtocol() {}

  public sealed interface Command extends CborSerializable {}

  // From the Application entities, once their events are durable.

  /**
   * @param keepContainers the application's attempts leave their running containers to the next
   * @param unmanagedAm its client runs the AM: nothing is placed or launched for it
   */
  public record AttemptAdded(
      String appId, String attemptId, String queue, String user, int priority, Resource amResource,
      ContainerLaunchContext amLaunch, long submitTime, boolean keepContainers, boolean unmanagedAm)
      implements Command {
    public AttemptAdded(String appId, String attemptId, String queue, String user, int priority, Resource amResource,
        ContainerLaunchContext amLaunch, long submitTime, boolean keepContainers) {
      this(appId, attemptId, queue, user, priority, amResource, amLaunch, submitTime, keepContainers, false);
    }

    public AttemptAdded(String appId, String attemptId, String queue, String user, int priority, Resource amResource,
        ContainerLaunchContext amLaunch, long submitTime) {
      this(appId, attemptId, queue, user, priority, amResource, amLaunch, submitTime, false);
    }
  }

  public record AttemptEnded(String appId, String attemptId) implements Command {}

  public record AppEnded(String appId, AppState state) implements Command {}

  public record PriorityChanged(String appId, int priority) implements Command {}

  /** @param deadline when the application's lifetime runs out, ms since the epoch */
  public record LifetimeChanged(String appId, long deadline) implements Command {}

  /** @param queue the leaf it runs in from now on, a path below root */
  public record QueueMoved(String appId, String queue) implements Command {}

  // From the NodeManager protocol routes.

  /**
   * Answered with the scheduler's epoch, which the NodeManager uses for fencing.
   *
   * @param runningApplications the applications the node holds containers of, live or finished, and
   *     has not been told to clean up
   */
  public record NodeRegistered(NodeEntity.Registration registration, List<ContainerStatus> containers,
      List<String> runningApplications, ActorRef<Long> replyTo) implements Command {}

  public record NodeHeartbeat(NodeHeartbeatRequest request, ActorRef<NodeHeartbeatResponse> replyTo)
      implements Command {}

  /** The NodeManager is stopping gracefully: the node is SHUTDOWN. */
  public record NodeUnregistered(String nodeId, ActorRef<UnregisterNodeResponse> replyTo) implements Command {}

  // From the ApplicationMaster protocol routes.

  public record AmRegistered(String attemptId, ActorRef<AmOutcome<RegisterAmResponse>> replyTo)
      implements Command {}

  public record Allocate(String attemptId, AllocateRequest request, ActorRef<AmOutcome<AllocateResponse>> replyTo)
      implements Command {}

  /** A reply to an AM call: a response, or YARN's exception name and message. */
  public record AmOutcome<T>(
      // The concrete type travels with the value: the reply may cross to another member.
      @JsonTypeInfo(use = JsonTypeInfo.Id.CLASS) T response, String exception, String message)
      implements CborSerializable {
    public static <T> AmOutcome<T> ok(T response) {
      return new AmOutcome<>(response, null, null);
    }

    public static <T> AmOutcome<T> error(String exception, String message) {
      return new AmOutcome<>(null, exception, message);
    }
  }

  // Views and operations.

  public record GetNodes(ActorRef<NodesReport> replyTo) implements Command {}

  public record NodeReport(
      String nodeId, String host, String httpAddress, String rack, NodeState state, Resource capacity,
      Resource used, int numContainers, long lastHeartbeat, String healthReport, long lastHealthUpdate)
      implements CborSerializable {}

  public record NodesReport(List<NodeReport> nodes) implements CborSerializable {}

  /** Every followed application's usage and the cluster's totals. */
  public record GetUsage(ActorRef<UsageReport> replyTo) implements Command {}

  /** @param diagnostics why the scheduling policy keeps it waiting; empty when nothing does */
  public record AppUsage(Resource allocated, int runningContainers, float progress, String diagnostics)
      implements CborSerializable {
    public AppUsage {
      if (diagnostics == null) diagnostics = "";
    }

    public AppUsage(Resource allocated, int runningContainers, float progress) {
      this(allocated, runningContainers, progress, "");
    }
  }

  /** {@code activeNodes} are those in service; UNHEALTHY ones, still heartbeating, are counted apart. */
  public record UsageReport(Map<String, AppUsage> apps, Resource clusterCapacity, Resource clusterUsed,
      int activeNodes, int lostNodes, int unhealthyNodes, int decommissioningNodes, int decommissionedNodes,
      int shutdownNodes, long containersAllocated) implements CborSerializable {
    public UsageReport(Map<String, AppUsage> apps, Resource clusterCapacity, Resource clusterUsed,
        int activeNodes, int lostNodes, int unhealthyNodes, long containersAllocated) {
      this(apps, clusterCapacity, clusterUsed, activeNodes, lostNodes, unhealthyNodes, 0, 0, 0, containersAllocated);
    }

    public UsageReport(Map<String, AppUsage> apps, Resource clusterCapacity, Resource clusterUsed,
        int activeNodes, int lostNodes, long containersAllocated) {
      this(apps, clusterCapacity, clusterUsed, activeNodes, lostNodes, 0, containersAllocated);
    }
  }

  /** One application's usage, for its report: no walk over every application. */
  public record GetAppUsage(String appId, ActorRef<AppUsageReport> replyTo) implements Command {}

  /** @param usage null when the scheduler does not follow the application (it has ended, say) */
  public record AppUsageReport(AppUsage usage, Resource clusterCapacity) implements CborSerializable {}

  /** The application's live containers, of every attempt; none when the scheduler does not follow it. */
  public record GetAppContainers(String appId, ActorRef<AppContainers> replyTo) implements Command {}

  /** @param running its NodeManager reported it started; otherwise it is allocated and not yet started */
  public record AppContainer(String containerId, String attemptId, String nodeId, String nodeHttpAddress,
      Resource resource, int priority, boolean am, boolean running, long allocatedTime) implements CborSerializable {}

  public record AppContainers(List<AppContainer> containers) implements CborSerializable {}

  /** Answered once the scheduler has read its model from the journal (at once after that). */
  public record WhenRecovered(ActorRef<Done> replyTo) implements Command {}

  /** Reads the queue configuration again and swaps it in; an invalid one is refused and changes nothing. */
  public record Reconfigure(ActorRef<StatusReply<String>> replyTo) implements Command {}

  /**
   * The host lists were read again: every in-service node whose host they now refuse is
   * DECOMMISSIONED, its containers killed, or with {@code gracefulMillis >= 0} DECOMMISSIONING for
   * that long; a decommissioning node they allow again is recommissioned. The answer names the
   * nodes taken out of service.
   *
   * @param included the hosts that may register; null when every host may
   */
  public record DecommissionRefusedHosts(Set<String> included, Set<String> excluded, long gracefulMillis,
      ActorRef<Decommissioned> replyTo) implements Command {}

  /**
   * An administrator sets a node's state: DECOMMISSIONING (for {@code gracefulMillis} at most),
   * DECOMMISSIONED, or RUNNING to recommission it; answered with the state it is in, or why not.
   */
  public record SetNodeState(String nodeId, NodeState state, long gracefulMillis,
      ActorRef<StatusReply<String>> replyTo) implements Command {}

  /** The nodes a refresh decommissioned. */
  public record Decommissioned(List<String> nodeIds) implements CborSerializable {}

  /** The policy's state for the scheduler REST view. */
  public record GetView(ActorRef<SchedulerView> replyTo) implements Command {}

  /**
   * The leaf an application may be moved to when asked for {@code queue}. The scheduler's policy
   * answers: it knows the queues placement made at run time, which a member's copy does not.
   */
  public record GetMoveTarget(String queue, ActorRef<MoveTarget> replyTo) implements Command {}

  /** @param queue the leaf's full path; null when refused, and {@code refusal} says why */
  public record MoveTarget(String queue, String refusal) implements CborSerializable {
    static MoveTarget of(Placement placement) {
      return placement instanceof Placement.Placed p
          ? new MoveTarget(p.queue(), null)
          : new MoveTarget(null, ((Placement.Rejected) placement).reason());
    }
  }

  // To itself.

  record Tick() implements Command {}

  /** One scheduling pass for everything that arrived before it. */
  record Wave() implements Command {}

  record PolicyTick() implements Command {}

  record EpochLoaded(EpochEntity.Started started, String error) implements Command {}

  record Recovered(EpochEntity.Started started, RecoveredModel model, String error) implements Command {}

  /** {@code answered}: the entity replied (a refusal wrote nothing); otherwise the write's fate is unknown. */
  record AllocationDone(String containerId, String error, boolean answered) implements Command {}

  record CompletionDone(String containerId, ContainerStatus status, String error) implements Command {}

  /** A completion's write failed: written again if the container still waits for it. */
  record RetryCompletion(String containerId, ContainerStatus status) implements Command {}

  /** The Container entity's answer about a container an NM runs and the model lacks; error if it did not answer. */
  record AdoptionChecked(String nodeId, String containerId, ContainerEntity.Report report, String error)
      implements Command {}

  /** The application's answer for a node that reported it; {@code ended} null if it did not answer. */
  record ReportedAppLookedUp(String nodeId, String appId, Boolean ended) implements Command {}

  /** An AM container's start: {@code error} says why it failed; null when it started or the launcher did not say. */
  record AmLaunched(String containerId, String error) implements Command {}

  /** A write that failed: refused, or no answer in time. */
  record Written(Write write, int attempt, String error, boolean refused) implements Command {}

  /** A write that got no answer, sent again. */
  record WriteAgain(Write write, int attempt) implements Command {}

  /** A queue configuration read again for {@link Reconfigure}, or why it could not be read. */
  record ConfigLoaded(PolicyConfig config, String error, ActorRef<StatusReply<String>> replyTo)
      implements Command, NoSerializationVerificationNeeded {}
}
