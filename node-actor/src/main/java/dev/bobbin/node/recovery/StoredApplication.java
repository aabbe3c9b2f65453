package dev.bobbin.node.recovery;

/**
 * What the state store keeps of an application with containers on the node: its user (whose
 * directories hold its local files) and whether the RM said it ended.
 */
public record StoredApplication(String applicationId, String user, boolean ended) {
  public StoredApplication asEnded() {
    return new StoredApplication(applicationId, user, true);
  }
}
