package dev.bobbin.node.aux;

import dev.bobbin.protocol.Resource;
import java.nio.file.Path;

/**
 * A container the node runs.
 *
 * @param appLocalDir the application's directory on this node, which goes with its cleanup
 * @param serviceData what the launch context carries for the service being told, or null
 */
public record ContainerStart(String containerId, String applicationId, String user, Resource resource, Path workDir,
    Path appLocalDir, byte[] serviceData) {}
