package dev.bobbin.core.keys;

/**
 * What a key signs. Each purpose has keys of its own, as YARN's secret managers do: container-token
 * keys are handed to NodeManagers, which check container tokens with them, while AM-token keys never
 * leave the RM members, so no NodeManager can act as an ApplicationMaster. (Bobbin has no NM tokens:
 * an AM proves its right to a container to the NodeManager with that container's token.)
 */
public enum KeyPurpose {
  CONTAINER_TOKEN("container-token"),
  AM_TOKEN("AM-token");

  private final String label;

  KeyPurpose(String label) {
    this.label = label;
  }

  @Override
  public String toString() {
    return label;
  }
}
