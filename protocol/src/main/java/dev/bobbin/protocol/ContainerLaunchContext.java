package dev.bobbin.protocol;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * What a NodeManager needs to start a process: the commands (joined with " && " and run by
 * {@code bash -c}), environment entries, the local resources it links into the container's
 * working directory under their names before the launch, and the service data: for each auxiliary
 * service of the NodeManager that the application uses, the bytes (base64) that service is given
 * when the application starts on the node, as YARN's {@code serviceData}. {@code {{VAR}}} in
 * commands and values is expanded by the NM, as YARN does.
 */
public record ContainerLaunchContext(
    List<String> commands, Map<String, String> environment, Map<String, LocalResource> localResources,
    Map<String, String> serviceData)
    implements CborSerializable {
  @JsonCreator
  public ContainerLaunchContext(
      @JsonProperty("commands") List<String> commands,
      @JsonProperty("environment") Map<String, String> environment,
      @JsonProperty("local-resources") Map<String, LocalResource> localResources,
      @JsonProperty("service-data") Map<String, String> serviceData) {
    this.commands = commands == null ? List.of() : List.copyOf(commands);
    this.environment = environment == null ? Map.of() : Map.copyOf(environment);
    this.localResources = localResources == null ? Map.of() : Map.copyOf(localResources);
    this.serviceData = serviceData == null ? Map.of() : Map.copyOf(serviceData);
  }

  public ContainerLaunchContext(
      List<String> commands, Map<String, String> environment, Map<String, LocalResource> localResources) {
    this(commands, environment, localResources, Map.of());
  }

  public ContainerLaunchContext(List<String> commands, Map<String, String> environment) {
    this(commands, environment, Map.of());
  }

  @Override
  @JsonProperty("local-resources")
  public Map<String, LocalResource> localResources() {
    return localResources;
  }

  /** Service name to its data, base64. */
  @Override
  @JsonProperty("service-data")
  public Map<String, String> serviceData() {
    return serviceData;
  }

  /** This context with other environment entries, the rest kept. */
  public ContainerLaunchContext withEnvironment(Map<String, String> env) {
    return new ContainerLaunchContext(commands, env, localResources, serviceData);
  }
}
