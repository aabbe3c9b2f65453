package dev.bobbin.protocol.client;

import dev.bobbin.protocol.WirePaths;
import dev.bobbin.protocol.rest.ContainerLogFileInfo;
import dev.bobbin.protocol.rest.NodeContainerInfo;
import dev.bobbin.protocol.rest.NodeManagerInfo;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A NodeManager's REST API ({@code /ws/v1/node}) for users and tools: the node, its containers and
 * their logs. Every call waits for its answer and throws a {@link CallException} when it gets none
 * or an error. Nodes are addressed as the RM reports them ({@code host:port}) or by URL.
 */
public final class NodeRestClient {
  static final String NODE = "/ws/v1/node";

  private final BobbinHttp http;

  public NodeRestClient(BobbinHttp http) {
    this.http = http;
  }

  public NodeManagerInfo info(String nodeHttpAddress) {
    return ClientJson.entity(http.sendAndWait(Call.get(nodeHttpAddress, NODE + "/info")), "nodeInfo",
        NodeManagerInfo.class);
  }

  /** Every container the node knows, running or ended. */
  public List<NodeContainerInfo> containers(String nodeHttpAddress) {
    return ClientJson.elements(http.sendAndWait(Call.get(nodeHttpAddress, WirePaths.NM_CONTAINERS)), "containers",
        "container", NodeContainerInfo.class);
  }

  /** The text of one of a container's log files ({@code stdout}, {@code stderr}). */
  public String containerLog(String nodeHttpAddress, String containerId, String file) {
    String path = WirePaths.NM_CONTAINERS + "/" + containerId + "/logs/"
        + URLEncoder.encode(file, StandardCharsets.UTF_8).replace("+", "%20");
    return http.sendAndWait(Call.get(nodeHttpAddress, path).accepting(MediaType.TEXT)).text();
  }

  /** The log files the node has of a container, running or ended. */
  public List<ContainerLogFileInfo> containerLogFiles(String nodeHttpAddress, String containerId) {
    Reply r = http.sendAndWait(Call.get(nodeHttpAddress, WirePaths.NM_CONTAINERS + "/" + containerId + "/logs"));
    return ClientJson.elements(r, "containerLogsInfo", "containerLogInfo", ContainerLogFileInfo.class);
  }
}
