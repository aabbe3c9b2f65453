package dev.bobbin.bench;

import dev.bobbin.pg.EmbeddedPostgres;

/** The PostgreSQL server that a {@code --journal postgres} run starts for itself and stops at its end. */
final class RunPostgres {
  private RunPostgres() {}

  interface Scenario {
    /** @param pg the run's server, or null for the embedded H2 journal */
    Report run(EmbeddedPostgres pg) throws Exception;
  }

  static Report around(BenchOptions o, Scenario scenario) throws Exception {
    EmbeddedPostgres pg = o.postgres() ? EmbeddedPostgres.start() : null;
    try {
      return scenario.run(pg);
    } finally {
      if (pg != null) pg.close();
    }
  }
}
