package dev.bobbin.node.localizer;

import dev.bobbin.node.container.ContainerProcess;
import dev.bobbin.node.container.LaunchSpec;
import dev.bobbin.node.container.OsAccount;
import dev.bobbin.node.container.ProcessLauncher;
import dev.bobbin.node.container.UserProcessLauncher;
import dev.bobbin.protocol.LocalResource;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Launches a container once its resources are localized and linked into its working directory,
 * and gives them back to the caches when its process ends. A failed localization fails the
 * launch with the diagnostics naming the resource. A container run as its user gets its
 * application's directories made first, its copies handed to that user, and links it makes
 * itself as it starts.
 */
public record LocalizingLauncher(Localizer localizer, Path appDir, Map<String, LocalResource> resources,
    ProcessLauncher next) implements ProcessLauncher {
  @Override
  public ContainerProcess launch(LaunchSpec spec) throws IOException {
    if (next instanceof UserProcessLauncher asUser) {
      OsAccount account = asUser.prepareApplicationDirs(spec);
      Localizer.Localized done = localizer.localize(spec.user(), account, spec.applicationId(), appDir, resources);
      return holding(done.lease(), () -> asUser.launch(spec, account, done.links()));
    }
    Localizer.Lease lease = localizer.localize(spec.user(), spec.applicationId(), appDir, spec.workDir(), resources);
    return holding(lease, () -> next.launch(spec));
  }

  private interface Launch {
    ContainerProcess start() throws IOException;
  }

  /** Starts the process; the lease goes back when it ends, or at once when it cannot start. */
  private ContainerProcess holding(Localizer.Lease lease, Launch launch) throws IOException {
    ContainerProcess process;
    try {
      process = launch.start();
    } catch (IOException | RuntimeException e) {
      localizer.release(lease);
      throw e;
    }
    process.onExit().whenComplete((code, err) -> localizer.release(lease));
    return process;
  }
}
