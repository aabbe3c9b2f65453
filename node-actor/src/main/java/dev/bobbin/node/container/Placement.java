package dev.bobbin.node.container;

import java.io.IOException;
import java.util.List;

/**
 * What is done for a container before its command runs, such as joining its cgroups: prepared by
 * the NodeManager, then a program run first in the container's own process, as the NodeManager's
 * user, which ends by executing the rest of the command line in that same process.
 */
@FunctionalInterface
public interface Placement {
  /** Nothing before the command. */
  Placement NONE = spec -> List.of();

  /** @return the program and arguments to put in front of the container's command line; empty for none */
  List<String> prepare(LaunchSpec spec) throws IOException;

  /** {@code prefix} followed by {@code command}. */
  static List<String> prefixed(List<String> prefix, List<String> command) {
    if (prefix.isEmpty()) return command;
    List<String> all = new java.util.ArrayList<>(prefix);
    all.addAll(command);
    return all;
  }
}
