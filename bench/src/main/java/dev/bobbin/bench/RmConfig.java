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
  private final EmbeddedPostgres.Database postgres;

  RmConfig(boolean fair) {
    this(fair, null);
  }

  /** @param postgres the journal's database, or null for the embedded H2 */
  RmConfig(boolean fair, EmbeddedPostgres.Database postgres) {
    this.fair = fair;
    this.postgres = postgres;
  }

  /** @param nodeCredential the file holding {@link BenchHttp#NODE_CREDENTIAL} */
  String hocon(Path dataDir, int httpPort, int clusterPort, Path nodeCredential) {
    return "bobbin.data-dir = \"" + dataDir.toAbsolutePath() + "\"\n"
        + "bobbin.rm { hostname = \"127.0.0.1\", http-port = " + httpPort + ", node-credential-file = \""
        + nodeCredential.toAbsolutePath() + "\" }\n"
        + "pekko.remote.artery.canonical { hostname = \"127.0.0.1\", port = " + clusterPort + " }\n"
        + Topology.schedulerHocon(fair)
        + (postgres == null ? "" : "bobbin.persistence { journal = postgres, postgres { url = \"" + postgres.jdbcUrl()
            + "\", user = \"" + postgres.user() + "\", password = \"" + postgres.password() + "\" } }\n");
  }
}
