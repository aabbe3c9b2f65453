package dev.bobbin.node.container;

import java.io.IOException;

/** A container the node will not start; the message is the diagnostics the application sees. */
public final class ContainerLaunchRefused extends IOException {
  public ContainerLaunchRefused(String diagnostics) {
    super(diagnostics);
  }
}
