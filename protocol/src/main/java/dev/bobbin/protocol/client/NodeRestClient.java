package dev.bobbin.protocol.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.protocol.WirePaths;
import dev.bobbin.protocol.rest.NodeContainerInfo;
import dev.bobbin.protocol.rest.NodeManagerInfo;
import java.io.IOException;
import java.util.ArrayList;
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
    Reply reply = http.sendAndWait(Call.get(nodeHttpAddress, NODE + "/info"));
    return convert(reply, reply.as(JsonNode.class).path("nodeInfo"), NodeManagerInfo.class);
  }

  /** Every container the node knows, running or ended. */
  public List<NodeContainerInfo> containers(String nodeHttpAddress) {
    Reply reply = http.sendAndWait(Call.get(nodeHttpAddress, WirePaths.NM_CONTAINERS));
    JsonNode items = reply.as(JsonNode.class).path("containers").path("container");
    List<NodeContainerInfo> out = new ArrayList<>();
    if (items.isArray()) {
      for (JsonNode item : items) out.add(convert(reply, item, NodeContainerInfo.class));
    } else if (items.isObject()) {
      out.add(convert(reply, items, NodeContainerInfo.class));
    }
    return out;
  }

  /** The text of one of a container's log files ({@code stdout}, {@code stderr}). */
  public String containerLog(String nodeHttpAddress, String containerId, String file) {
    String path = WirePaths.NM_CONTAINERS + "/" + containerId + "/logs/" + file;
    return http.sendAndWait(Call.get(nodeHttpAddress, path).accepting(MediaType.TEXT)).text();
  }

  private static <T> T convert(Reply reply, JsonNode node, Class<T> type) {
    try {
      return ClientJson.convert(node, type);
    } catch (IOException | RuntimeException e) {
      throw new UnreadableReplyException(reply.url(), reply.status(), type, e, reply.body());
    }
  }
}
