package dev.bobbin.node.container;

import java.io.IOException;

/** Starts container processes; the real one forks, tests may fake it. Calls may block. */
public interface ProcessLauncher {
  ContainerProcess launch(LaunchSpec spec) throws IOException;

  /**
   * The same launcher, with {@code placement} done for every container before its command runs.
   *
   * @throws UnsupportedOperationException when this launcher cannot run anything before the command
   */
  default ProcessLauncher placing(Placement placement) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " runs nothing before a container's command");
  }
}
