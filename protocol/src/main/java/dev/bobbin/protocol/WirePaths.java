package dev.bobbin.protocol;

/** HTTP paths of Bobbin's own NM and AM protocols (the client API follows YARN's REST paths). */
public final class WirePaths {
  public static final String NM_REGISTER = "/ws/v1/bobbin/nm/register";
  public static final String NM_HEARTBEAT = "/ws/v1/bobbin/nm/heartbeat";
  public static final String NM_UNREGISTER = "/ws/v1/bobbin/nm/unregister";
  public static final String AM_REGISTER = "/ws/v1/bobbin/am/register";
  public static final String AM_ALLOCATE = "/ws/v1/bobbin/am/allocate";
  public static final String AM_FINISH = "/ws/v1/bobbin/am/finish";
  /** Header that carries the AM token on every AM protocol call. */
  public static final String AM_TOKEN_HEADER = "X-Bobbin-AM-Token";
  /** Header that carries the cluster's node credential on every NM protocol call. */
  public static final String NODE_CREDENTIAL_HEADER = "X-Bobbin-Node-Credential";

  public static final String NM_START_CONTAINERS = "/ws/v1/node/container-manager/start";
  public static final String NM_STOP_CONTAINERS = "/ws/v1/node/container-manager/stop";
  public static final String NM_CONTAINER_STATUSES = "/ws/v1/node/container-manager/status";
  /** NM REST: {@code GET /ws/v1/node/containers} and {@code /ws/v1/node/containers/{id}}. */
  public static final String NM_CONTAINERS = "/ws/v1/node/containers";

  private WirePaths() {}
}
