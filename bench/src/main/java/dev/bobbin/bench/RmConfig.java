package dev.bobbin.bench;

import dev.bobbin.pg.EmbeddedPostgres;
import java.nio.file.Path;

/**
 * The RM configuration the scenarios run with: the defaults, the ten queues, 127.0.0.1, and the
 * node credential the simulated NodeManagers present ({@link BenchHttp#NODE_CREDENTIAL}); the
 * embedded journal unless a PostgreSQL database is given.
 */
final class RmConfig {
  final boolean fair;
  final BenchAuth auth;
  private final EmbeddedPostgres.Database postgres;

  RmConfig(boolean fair, BenchAuth auth) {
    this(fair, auth, null);
  }

  /** @param postgres the journal's database, or null for the embedded H2 */
  RmConfig(boolean fair, BenchAuth auth, EmbeddedPostgres.Database postgres) {
    this.fair = fair;
    this.auth = auth;
    this.postgres = postgres;
  }

  /**
   * @param nodeCredential the file holding {@link BenchHttp#NODE_CREDENTIAL}
   * @param hmacKey the file holding {@link BenchHttp#HMAC_KEY}, which signs the clients' tokens
   */
  String hocon(Path dataDir, int httpPort, int clusterPort, Path nodeCredential, Path hmacKey) {
    return "bobbin.data-dir = \"" + dataDir.toAbsolutePath() + "\"\n"
        + "bobbin.rm { hostname = \"127.0.0.1\", http-port = " + httpPort + ", node-credential-file = \""
        + nodeCredential.toAbsolutePath() + "\" }\n"
        + "pekko.remote.artery.canonical { hostname = \"127.0.0.1\", port = " + clusterPort + " }\n"
        + Topology.schedulerHocon(fair)
        + auth.hocon(hmacKey)
        + (postgres == null ? "" : "bobbin.persistence { journal = postgres, postgres { url = \"" + postgres.jdbcUrl()
            + "\", user = \"" + postgres.user() + "\", password = \"" + postgres.password() + "\" } }\n");
  }
}
