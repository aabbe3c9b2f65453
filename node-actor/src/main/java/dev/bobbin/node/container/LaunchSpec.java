package dev.bobbin.node.container;

import dev.bobbin.protocol.Resource;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** A container ready to start: environment and commands already expanded, directories chosen. */
public record LaunchSpec(
    String containerId,
    String applicationId,
    String user,
    Resource resource,
    Map<String, String> environment,
    List<String> commands,
    Path workDir,
    Path logDir) {
  public LaunchSpec {
    environment = Map.copyOf(environment);
    commands = List.copyOf(commands);
  }

  public static final String SCRIPT_NAME = "launch_container.sh";
  public static final String STDOUT = "stdout";
  public static final String STDERR = "stderr";
}
