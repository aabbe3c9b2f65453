package dev.bobbin.core.trust;

import dev.bobbin.config.NodeCredential;
import dev.bobbin.config.NodeTrustSettings;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Which NodeManagers an RM member lets in: by their credential, and by their host. */
public record NodeTrust(NodeAuthenticator authenticator, MemberHostLists hosts) {
  private static final Logger log = LoggerFactory.getLogger(NodeTrust.class);
  private static final String CREDENTIAL_KEY = "bobbin.rm.node-credential-file";

  /**
   * Reads the node credential (making one in the data directory on the first start, unless one is
   * configured) and the host lists, and says in the log where the credential is and how a
   * NodeManager uses it.
   */
  public static NodeTrust load(NodeTrustSettings settings) {
    String credential;
    String where;
    if (settings.credentialConfigured()) {
      credential = NodeCredential.read(settings.credentialFile(), CREDENTIAL_KEY);
      where = "configured";
    } else {
      NodeCredential.Loaded loaded = NodeCredential.readOrCreate(settings.credentialFile(), CREDENTIAL_KEY);
      credential = loaded.value();
      where = loaded.created() ? "made now, readable by its owner only" : "made on this member's first start";
    }
    String file = settings.credentialFile().toAbsolutePath().toString();
    log.info("NodeManagers join this cluster with the node credential in {} ({}): start each with"
        + " 'bobbin nm --node-credential FILE' (or bobbin.nm.node-credential-file) on a copy of it; every member"
        + " of the cluster needs the same one ({})", file, where, CREDENTIAL_KEY);
    MemberHostLists hosts = new MemberHostLists(settings);
    if (hosts.configured()) logHosts(hosts);
    return new NodeTrust(NodeAuthenticator.sharedCredential(credential), hosts);
  }

  /** Says in the log which hosts may register, and from which files. */
  public static void logHosts(MemberHostLists lists) {
    NodeTrustSettings settings = lists.settings();
    HostLists hosts = lists.current();
    log.info("NodeManager hosts: {} included ({}), {} excluded ({})",
        hosts.included().map(s -> Integer.toString(s.size())).orElse("all"),
        settings.includePath().map(Object::toString).orElse("no include list"), hosts.excluded().size(),
        settings.excludePath().map(Object::toString).orElse("no exclude list"));
  }

  /** Why a call with {@code proof} is refused; empty when it is let in. */
  public Optional<String> refusal(NodeProof proof) {
    return authenticator.refusal(proof);
  }
}
