package dev.bobbin.node.cgroups;

import dev.bobbin.config.NmCgroupsSettings;
import dev.bobbin.node.container.ContainerActor;
import dev.bobbin.node.container.LaunchSpec;
import dev.bobbin.node.container.ProcessLauncher;
import dev.bobbin.node.recovery.ContainerRecovery;
import dev.bobbin.protocol.ExitStatus;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A NodeManager's use of cgroups: chosen once at start (and said in one log line), then a
 * container's cgroups are made as it launches, its process joins them before its command runs,
 * its end is read from them (a container the kernel killed for memory ends with -104), and they
 * are removed once it has ended. Without usable cgroups every call here leaves things as they are.
 * Used from the node actor only, except for the launcher and {@link #memoryUsage}.
 */
public final class NodeCgroups {
  /**
   * Joins the process to every cgroup named before {@code --}, then becomes the rest of its command
   * line: the container's process is in its cgroups before its command runs, and so is all it starts.
   */
  static final String JOIN = "while [ \"$1\" != -- ]; do echo $$ > \"$1\" || { echo \"bobbin: cannot join the"
      + " container's cgroup through $1\" >&2; exit 1; }; shift; done; shift; exec \"$@\"";
  static final String ENABLED_KEY = "bobbin.nm.cgroups.enabled";
  static final String MEMORY_KEY = "bobbin.nm.resource.memory.enforced";
  private static final Duration RETRY_EVERY = Duration.ofMillis(200);
  private static final Duration GIVE_UP_AFTER = Duration.ofSeconds(30);
  /** Its own: the node actor's log takes its name from the first class that asks the actor for it. */
  private static final Logger log = LoggerFactory.getLogger(NodeCgroups.class);

  private final ContainerCgroups cgroups;
  private final boolean memoryEnforced;
  private final ProcessLauncher launcher;
  private final ActorRef<CgroupCleaner.Command> cleaner;
  /** Each placed container's root process, for its end's diagnostics. */
  private final Map<String, Long> pids = new HashMap<>();

  private NodeCgroups(ContainerCgroups cgroups, boolean memoryEnforced, ProcessLauncher launcher,
      ActorRef<CgroupCleaner.Command> cleaner) {
    this.cgroups = cgroups;
    this.memoryEnforced = memoryEnforced;
    this.launcher = launcher;
    this.cleaner = cleaner;
  }

  /** Looks for cgroups in this host's mounts. */
  public static NodeCgroups start(ActorContext<?> ctx, NmCgroupsSettings settings, String nodeId,
      ProcessLauncher launcher) {
    return start(ctx, settings, nodeId, launcher, () -> {
      try {
        return CgroupMounts.ofThisHost();
      } catch (IOException e) {
        return List.of();
      }
    });
  }

  public static NodeCgroups start(ActorContext<?> ctx, NmCgroupsSettings settings, String nodeId,
      ProcessLauncher launcher, Supplier<List<CgroupMounts.Mount>> mounts) {
    String fallback = "; the container monitor alone holds containers to their memory";
    if (!settings.enabled()) {
      log.info("Container cgroups: none ({} = false){}", ENABLED_KEY, fallback);
      return none(launcher);
    }
    CgroupDetection.Result found = CgroupDetection.detect(mounts.get(), settings.hierarchy(), nodeId);
    if (found instanceof CgroupDetection.NotFound nf) {
      log.warn("Container cgroups: none usable though {} = true ({}){}", ENABLED_KEY, nf.why(), fallback);
      return none(launcher);
    }
    ContainerCgroups cgroups = ((CgroupDetection.Found) found).cgroups();
    ProcessLauncher placing;
    try {
      placing = launcher.placing(spec -> place(cgroups, spec, settings.memoryEnforced()));
    } catch (UnsupportedOperationException e) {
      cgroups.removeOwn();
      log.warn("Container cgroups: none though {} = true ({}){}", ENABLED_KEY, e.getMessage(), fallback);
      return none(launcher);
    }
    List<String> passedOver = ((CgroupDetection.Found) found).passedOver();
    log.info("Container cgroups: {}; each container in its own, CPU weight from its vcores, {}{}",
        cgroups.description(), settings.memoryEnforced()
            ? "memory limited to its allocation (" + MEMORY_KEY + "): the kernel enforces it, so the container monitor"
                + " does not check physical memory"
            : "memory not limited (" + MEMORY_KEY + " = false): the container monitor checks it",
        passedOver.isEmpty() ? "" : " (passed over: " + String.join("; ", passedOver) + ")");
    ActorRef<CgroupCleaner.Command> cleaner = ctx.spawn(CgroupCleaner.create(cgroups, RETRY_EVERY, GIVE_UP_AFTER),
        "cgroup-cleaner", DispatcherSelector.blocking());
    return new NodeCgroups(cgroups, settings.memoryEnforced(), placing, cleaner);
  }

  private static NodeCgroups none(ProcessLauncher launcher) {
    return new NodeCgroups(null, false, launcher, null);
  }

  private static List<String> place(ContainerCgroups cgroups, LaunchSpec spec, boolean memoryEnforced)
      throws IOException {
    long limit = memoryEnforced ? spec.resource().memory() * 1024 * 1024 : 0;
    cgroups.create(spec.containerId(), limit, spec.resource().vCores());
    List<String> prefix = new ArrayList<>(List.of("sh", "-c", JOIN, "bobbin-cgroup"));
    cgroups.procsFiles(spec.containerId()).forEach(f -> prefix.add(f.toString()));
    prefix.add("--");
    return prefix;
  }

  /** The launcher to start containers with: the given one, placing each container in its cgroups when in use. */
  public ProcessLauncher launcher() {
    return launcher;
  }

  /** Whether the kernel holds containers to their memory, so the container monitor need not. */
  public boolean enforcesMemory() {
    return cgroups != null && memoryEnforced;
  }

  /** The memory a placed container's cgroup charges now; empty for one not placed. Any thread. */
  public OptionalLong memoryUsage(String containerId) {
    return cgroups == null ? OptionalLong.empty() : cgroups.memoryUsage(containerId);
  }

  public void launched(String containerId, long pid) {
    if (cgroups != null) pids.put(containerId, pid);
  }

  /**
   * The end to report for a container: killed for memory when the kernel killed it so, as it
   * ended otherwise. Its cgroups are removed from now on.
   */
  public ContainerActor.Finished ended(ContainerActor.Finished f) {
    Long pid = pids.remove(f.containerId());
    if (cgroups == null || !cgroups.exists(f.containerId())) return f;
    ContainerActor.Finished end = f;
    if (!f.killed()) {
      var kill = MemoryKill.diagnostics(f.containerId(), pid == null ? 0 : pid, f.exitStatus(),
          cgroups.memoryEvents(f.containerId()));
      if (kill.isPresent()) {
        log.warn("container killed by the kernel for memory containerId={}: {}", f.containerId(), kill.get());
        String diagnostics = f.diagnostics().isEmpty() ? kill.get() : kill.get() + "\n" + f.diagnostics();
        end = new ContainerActor.Finished(f.containerId(), ExitStatus.KILLED_EXCEEDED_PMEM,
            diagnostics, true);
      }
    }
    cleaner.tell(new CgroupCleaner.Remove(f.containerId()));
    return end;
  }

  /**
   * What a restarted NodeManager reports of a container that ended while none ran: killed for
   * memory when the kernel killed it so, as recovery found it otherwise. Its cgroups go with the
   * earlier run's leftovers.
   */
  public ContainerRecovery.Outcome recovered(ContainerRecovery.Outcome outcome) {
    if (cgroups == null || !(outcome instanceof ContainerRecovery.Ended e) || e.killed()) return outcome;
    String containerId = e.stored().containerId();
    if (!cgroups.exists(containerId)) return outcome;
    return MemoryKill.diagnostics(containerId, e.stored().pid(), e.exitStatus(), cgroups.memoryEvents(containerId))
        .<ContainerRecovery.Outcome>map(kill -> new ContainerRecovery.Ended(e.stored(), ExitStatus.KILLED_EXCEEDED_PMEM,
            kill + "\n" + e.diagnostics(), true))
        .orElse(outcome);
  }

  /** Removes the cgroups an earlier NodeManager on this node left, but those of the containers it took back. */
  public void removeLeftovers(Set<String> takenBack) {
    if (cgroups == null) return;
    Set<String> left = new TreeSet<>(cgroups.containers());
    left.removeAll(takenBack);
    if (left.isEmpty()) return;
    log.info("Removing the cgroups of {} containers an earlier NodeManager on this node left: {}", left.size(), left);
    left.forEach(id -> cleaner.tell(new CgroupCleaner.Remove(id)));
  }
}
