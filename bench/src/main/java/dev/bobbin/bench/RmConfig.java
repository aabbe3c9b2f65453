package dev.bobbin.bench;

import dev.bobbin.pg.EmbeddedPostgres;
import dev.bobbin.protocol.Tokens;
import java.nio.file.Path;
import java.security.SecureRandom;

/**
 * The RM configuration the scenarios run with: the defaults, the ten queues, 127.0.0.1, and a
 * known token secret (set as {@code bobbin.rm.token-secret}, so the simulated NodeManagers can
 * check container tokens as real ones do); the embedded journal unless a PostgreSQL database is given.
 */
final class RmConfig {
  final byte[] secret = new byte[32];
  final boolean fair;
  private final EmbeddedPostgres.Database postgres;

  RmConfig(boolean fair) {
    this(fair, null);
  }

  /** @param postgres the journal's database, or null for the embedded H2 */
  RmConfig(boolean fair, EmbeddedPostgres.Database postgres) {
    this.fair = fair;
    this.postgres = postgres;
    new SecureRandom().nextBytes(secret);
  }

  String hocon(Path dataDir, int httpPort, int clusterPort) {
    return "bobbin.data-dir = \"" + dataDir.toAbsolutePath() + "\"\n"
        + "bobbin.rm { hostname = \"127.0.0.1\", http-port = " + httpPort + ", token-secret = \""
        + Tokens.encodeKey(secret) + "\" }\n"
        + "pekko.remote.artery.canonical { hostname = \"127.0.0.1\", port = " + clusterPort + " }\n"
        + Topology.schedulerHocon(fair)
        + (postgres == null ? "" : "bobbin.persistence { journal = postgres, postgres { url = \"" + postgres.jdbcUrl()
            + "\", user = \"" + postgres.user() + "\", password = \"" + postgres.password() + "\" } }\n");
  }
}
