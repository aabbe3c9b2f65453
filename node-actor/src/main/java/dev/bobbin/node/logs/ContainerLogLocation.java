package dev.bobbin.node.logs;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Where one container's logs can be on this node, and whose they are.
 *
 * @param user the user the container ran for; "" when the node no longer knows (its logs outlived
 *     the node's record of it, across a restart of the NodeManager)
 * @param localDir its log directory on the node, which may be gone
 * @param known whether the node still holds the container's record: its log directory is then
 *     its own even before the container wrote there
 * @param aggregatedRoot the cluster's aggregated logs, when this node aggregates
 */
public record ContainerLogLocation(
    String containerId, String applicationId, String nodeId, String user, Path localDir, boolean known,
    Optional<Path> aggregatedRoot) {

  /** Its aggregated log directory, were it {@code owner}'s. */
  public Optional<Path> aggregatedDir(String owner) {
    return aggregatedRoot.map(root -> AggregatedLogs.nodeDir(root, owner, applicationId, nodeId).resolve(containerId));
  }
}
