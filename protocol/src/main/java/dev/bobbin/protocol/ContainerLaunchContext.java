package dev.bobbin.protocol;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * What a NodeManager needs to start a process: the commands (joined with " && " and run by
 * {@code bash -c}), environment entries, and the local resources it links into the container's
 * working directory under their names before the launch. {@code {{VAR}}} in commands and values is
 * expanded by the NM, as YARN does.
 */
public record ContainerLaunchContext(
    List<String> commands, Map<String, String> environment, Map<String, LocalResource> localResources)
    implements CborSerializable {
  @JsonCreator
  public ContainerLaunchContext(
      @JsonProperty("commands") List<String> commands,
      @JsonProperty("environment") Map<String, String> environment,
      @JsonProperty("local-resources") Map<String, LocalResource> localResources) {
    this.commands = commands == null ? List.of() : List.copyOf(commands);
    this.environment = environment == null ? Map.of() : Map.copyOf(environment);
    this.localResources = localResources == null ? Map.of() : Map.copyOf(localResources);
  }

  public ContainerLaunchContext(List<String> commands, Map<String, String> environment) {
    this(commands, environment, Map.of());
  }

  @Override
  @JsonProperty("local-resources")
  public Map<String, LocalResource> localResources() {
    return localResources;
  }

  /** This context with other environment entries, the rest kept. */
  public ContainerLaunchContext withEnvironment(Map<String, String> env) {
    return new ContainerLaunchContext(commands, env, localResources);
  }
}
