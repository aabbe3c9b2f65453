package dev.bobbin.node;

/** Where a NodeManager listens. In Bobbin the HTTP port is the node's port: nodeId = host:httpPort. */
public record NodeIdentity(String host, int port) {
  public String nodeId() {
    return host + ":" + port;
  }

  public String httpAddress() {
    return host + ":" + port;
  }
}
