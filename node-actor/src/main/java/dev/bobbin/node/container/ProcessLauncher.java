package dev.bobbin.node.container;

import java.io.IOException;

/** Starts container processes; the real one forks, tests may fake it. Calls may block. */
public interface ProcessLauncher {
  ContainerProcess launch(LaunchSpec spec) throws IOException;
}
