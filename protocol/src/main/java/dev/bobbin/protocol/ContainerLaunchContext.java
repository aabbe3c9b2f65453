package dev.bobbin.protocol;

import java.util.List;
import java.util.Map;

/**
 * What a NodeManager needs to start a process: the commands (joined with " && " and run by
 * {@code bash -c}) and environment entries. {@code {{VAR}}} in commands and values is expanded by
 * the NM, as YARN does.
 */
public record ContainerLaunchContext(List<String> commands, Map<String, String> environment)
    implements CborSerializable {
  public ContainerLaunchContext {
    commands = commands == null ? List.of() : List.copyOf(commands);
    environment = environment == null ? Map.of() : Map.copyOf(environment);
  }
}
