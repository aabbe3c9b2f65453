package dev.bobbin.core.trust;

import java.util.Optional;

/**
 * What a NodeManager's call brings to prove that the node belongs to the cluster: the node
 * credential it sent, if any. (A client certificate, once the RM serves TLS, is another proof
 * of the same kind.)
 */
public record NodeProof(Optional<String> credential) {
  public static NodeProof ofCredential(String credential) {
    return new NodeProof(Optional.ofNullable(credential));
  }

  @Override
  public String toString() {
    return "NodeProof[credential " + (credential.isPresent() ? "given" : "missing") + "]";
  }
}
