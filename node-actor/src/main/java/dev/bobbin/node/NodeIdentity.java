package dev.bobbin.node;

/**
 * Where a NodeManager listens. In Bobbin the HTTP port is the node's port: nodeId = host:httpPort.
 *
 * @param scheme {@code https} when that port speaks TLS, else {@code http}
 */
public record NodeIdentity(String host, int port, String scheme) {
  public NodeIdentity(String host, int port) {
    this(host, port, "http");
  }

  public String nodeId() {
    return host + ":" + port;
  }

  public String httpAddress() {
    return host + ":" + port;
  }

  /** The node's HTTP address as a URL, with its scheme. */
  public String webUrl() {
    return scheme + "://" + httpAddress();
  }
}
