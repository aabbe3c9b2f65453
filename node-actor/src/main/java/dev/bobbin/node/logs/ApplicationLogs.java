package dev.bobbin.node.logs;

import dev.bobbin.config.LogAggregationSettings;
import dev.bobbin.config.NmCleanupSettings;
import dev.bobbin.node.cleanup.DeletionService;
import dev.bobbin.node.cleanup.Deletions;
import dev.bobbin.node.container.ContainerLayout;
import dev.bobbin.node.container.ContainerRecord;
import dev.bobbin.protocol.Ids;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * What becomes of applications' container logs on this node: once an application has ended here,
 * they are aggregated first when the node aggregates ({@link LogAggregator}), then deleted after
 * {@code log-retain}. Remembers whose each application's logs are, so that they are served to the
 * right readers after its containers left the node's table. Owned by the node actor.
 */
public final class ApplicationLogs {
  /** Applications whose owner is remembered, the most recent; far more than a node's logs outlive. */
  private static final int OWNERS_KEPT = 10_000;

  private final NmCleanupSettings cleanup;
  private final String nodeId;
  private final ContainerLayout layout;
  private final ActorRef<DeletionService.Command> deletions;
  /** Null when the node does not aggregate. */
  private final ActorRef<LogAggregator.Command> aggregator;
  private final Map<String, String> owners = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
      return size() > OWNERS_KEPT;
    }
  };

  private ApplicationLogs(NmCleanupSettings cleanup, String nodeId, ContainerLayout layout,
      ActorRef<DeletionService.Command> deletions, ActorRef<LogAggregator.Command> aggregator) {
    this.cleanup = cleanup;
    this.nodeId = nodeId;
    this.layout = layout;
    this.deletions = deletions;
    this.aggregator = aggregator;
  }

  /** Starts the aggregation and the retention of aggregated logs when the settings ask for them. */
  public static ApplicationLogs start(ActorContext<?> ctx, NmCleanupSettings cleanup, String nodeId,
      ContainerLayout layout, ActorRef<DeletionService.Command> deletions, Clock clock) {
    LogAggregationSettings settings = cleanup.logAggregation();
    if (!settings.enabled()) {
      ctx.getLog().info("Log aggregation off: containers' logs stay on this node for {} ms after their application "
          + "ended", cleanup.logRetain().toMillis());
      return new ApplicationLogs(cleanup, nodeId, layout, deletions, null);
    }
    ctx.getLog().info("Log aggregation on: ended applications' logs are copied to {}, kept there {}, and on this node "
            + "for {} ms after the copy", settings.remoteAppLogDir(),
        settings.retain().map(r -> "for " + r.toMillis() + " ms").orElse("for ever"), cleanup.logRetain().toMillis());
    warnOfLeftovers(ctx, layout);
    ActorRef<LogAggregator.Command> aggregator = ctx.spawn(
        LogAggregator.create(settings, nodeId, cleanup.logRetain(), deletions), "log-aggregator",
        DispatcherSelector.blocking());
    if (settings.retain().isPresent()) {
      ctx.spawn(AggregatedLogRetention.create(settings, clock), "aggregated-log-retention",
          DispatcherSelector.blocking());
    }
    return new ApplicationLogs(cleanup, nodeId, layout, deletions, aggregator);
  }

  /** An earlier run's logs: this node cannot tell whether their applications ended, so it says what becomes of them. */
  private static void warnOfLeftovers(ActorContext<?> ctx, ContainerLayout layout) {
    List<Path> logs = layout.logDirs();
    try {
      int left = 0;
      for (Path dir : logs) left += Deletions.children(dir).size();
      if (left > 0) {
        ctx.getLog().warn("{} applications' logs under {} were left by an earlier run of this NodeManager: they are not "
            + "aggregated, and are deleted once log-retain has passed since they changed", left, logs);
      }
    } catch (IOException e) {
      ctx.getLog().warn("Could not look for logs an earlier run left under {}: {}", logs, e.toString());
    }
  }

  /** A container of {@code applicationId} for {@code user} runs, or ran, here. */
  public void ran(String applicationId, String user) {
    owners.put(applicationId, user);
  }

  /**
   * The application ended and none of its containers runs here any more: its logs under {@code
   * logs} (its directory in each log directory that holds some) are complete.
   */
  public void ended(String applicationId, Collection<Path> logs) {
    String user = owners.getOrDefault(applicationId, "");
    if (aggregator != null) aggregator.tell(new LogAggregator.Aggregate(applicationId, user, List.copyOf(logs)));
    else logs.forEach(dir -> deletions.tell(new DeletionService.DeleteAfter(dir, cleanup.logRetain())));
  }

  /** Where a container's logs are: {@code record} when the node still holds it, else where they would be. */
  public ContainerLogLocation locate(String containerId, Optional<ContainerRecord> record) {
    Optional<Path> aggregated = aggregator == null ? Optional.empty()
        : Optional.of(cleanup.logAggregation().remoteAppLogDir());
    if (record.isPresent()) {
      ContainerRecord c = record.get();
      return new ContainerLogLocation(containerId, c.applicationId(), nodeId, c.user(), c.logDir(), true, aggregated);
    }
    String applicationId = Ids.applicationIdOfContainer(containerId);
    return new ContainerLogLocation(containerId, applicationId, nodeId, owners.getOrDefault(applicationId, ""),
        layout.logDir(applicationId, containerId), false, aggregated);
  }
}
