package dev.bobbin.core.trust;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;

/** Decides whether a caller of the NodeManager protocol belongs to the cluster. */
@FunctionalInterface
public interface NodeAuthenticator {
  /** Why the caller is refused; empty when it is let in. */
  Optional<String> refusal(NodeProof proof);

  /** Lets in a caller that presents {@code credential}, the cluster's join token. */
  static NodeAuthenticator sharedCredential(String credential) {
    byte[] expected = credential.strip().getBytes(StandardCharsets.UTF_8);
    return proof -> {
      if (proof.credential().isEmpty() || proof.credential().get().isBlank()) {
        return Optional.of("no node credential: a NodeManager must present the cluster's (bobbin nm"
            + " --node-credential FILE)");
      }
      byte[] given = proof.credential().get().strip().getBytes(StandardCharsets.UTF_8);
      return MessageDigest.isEqual(expected, given) ? Optional.empty()
          : Optional.of("the node credential is not this cluster's");
    };
  }
}
