-- pekko-persistence-jdbc 1.1 tables (its schema/postgres/postgres-create-schema.sql), with
-- IF NOT EXISTS everywhere. Tables go into the first schema on the search_path, where the
-- plugin (schemaName = "") looks for them.
CREATE TABLE IF NOT EXISTS event_journal (
  ordering BIGSERIAL,
  persistence_id VARCHAR(255) NOT NULL,
  sequence_number BIGINT NOT NULL,
  deleted BOOLEAN DEFAULT FALSE NOT NULL,
  writer VARCHAR(255) NOT NULL,
  write_timestamp BIGINT,
  adapter_manifest VARCHAR(255),
  event_ser_id INTEGER NOT NULL,
  event_ser_manifest VARCHAR(255) NOT NULL,
  event_payload BYTEA NOT NULL,
  meta_ser_id INTEGER,
  meta_ser_manifest VARCHAR(255),
  meta_payload BYTEA,
  PRIMARY KEY (persistence_id, sequence_number)
);

CREATE UNIQUE INDEX IF NOT EXISTS event_journal_ordering_idx ON event_journal (ordering);

CREATE TABLE IF NOT EXISTS event_tag (
  event_id BIGINT,
  tag VARCHAR(256),
  PRIMARY KEY (event_id, tag),
  CONSTRAINT fk_event_journal FOREIGN KEY (event_id)
    REFERENCES event_journal (ordering) ON DELETE CASCADE
);

CREATE TABLE IF NOT EXISTS snapshot (
  persistence_id VARCHAR(255) NOT NULL,
  sequence_number BIGINT NOT NULL,
  created BIGINT NOT NULL,
  snapshot_ser_id INTEGER NOT NULL,
  snapshot_ser_manifest VARCHAR(255) NOT NULL,
  snapshot_payload BYTEA NOT NULL,
  meta_ser_id INTEGER,
  meta_ser_manifest VARCHAR(255),
  meta_payload BYTEA,
  PRIMARY KEY (persistence_id, sequence_number)
);

-- Bobbin's own: checkpoints of entity states folded from the journal up to an ordering
-- (JournalCheckpoints). A checkpoint is written as several parts in one transaction.
CREATE TABLE IF NOT EXISTS journal_checkpoint (
  name VARCHAR(255) NOT NULL,
  ordering BIGINT NOT NULL,
  part INTEGER NOT NULL,
  created BIGINT NOT NULL,
  ser_id INTEGER NOT NULL,
  ser_manifest VARCHAR(255) NOT NULL,
  payload BYTEA NOT NULL,
  PRIMARY KEY (name, ordering, part)
);

-- pekko-projection-jdbc 1.0 tables (its PostgreSQL dialect, with lower-case names): where a
-- projection keeps its offset, written in the same transaction as what the projection makes of
-- its events.
CREATE TABLE IF NOT EXISTS pekko_projection_offset_store (
  projection_name VARCHAR(255) NOT NULL,
  projection_key VARCHAR(255) NOT NULL,
  current_offset VARCHAR(255) NOT NULL,
  manifest VARCHAR(4) NOT NULL,
  mergeable BOOLEAN NOT NULL,
  last_updated BIGINT NOT NULL,
  PRIMARY KEY (projection_name, projection_key)
);

CREATE INDEX IF NOT EXISTS projection_name_index ON pekko_projection_offset_store (projection_name);

CREATE TABLE IF NOT EXISTS pekko_projection_management (
  projection_name VARCHAR(255) NOT NULL,
  projection_key VARCHAR(255) NOT NULL,
  paused BOOLEAN NOT NULL,
  last_updated BIGINT NOT NULL,
  PRIMARY KEY (projection_name, projection_key)
);

-- Bobbin's own: the application list (see h2.sql for what each column holds).
CREATE TABLE IF NOT EXISTS app_directory (
  app_id VARCHAR(255) NOT NULL PRIMARY KEY,
  state VARCHAR(32) NOT NULL,
  ended BIGINT,
  report TEXT NOT NULL,
  entity_ser_id INTEGER NOT NULL,
  entity_ser_manifest VARCHAR(255) NOT NULL,
  entity_payload BYTEA NOT NULL
);

CREATE INDEX IF NOT EXISTS app_directory_ended_idx ON app_directory (ended);

-- Applications per state, counting those that left the list (see h2.sql).
CREATE TABLE IF NOT EXISTS app_directory_count (
  state VARCHAR(32) NOT NULL PRIMARY KEY,
  apps BIGINT NOT NULL
);

-- Bobbin's own: journal fencing (dev.bobbin.persistence.fence, docs/fencing.md). Who may write
-- the entities of a shard or a singleton: the owning member incarnation, a counter raised at
-- every change of owner, and an expiry in epoch milliseconds on the database's clock.
CREATE TABLE IF NOT EXISTS "journal_lease" (
  "name" VARCHAR(512) NOT NULL PRIMARY KEY,
  "owner" VARCHAR(255),
  "fencing" BIGINT NOT NULL,
  "expires_at" BIGINT NOT NULL
);

CREATE INDEX IF NOT EXISTS "journal_lease_owner_idx" ON "journal_lease" ("owner");

-- Member incarnations the cluster downed or removed, and when the survivors took their leases
-- (database clock, epoch ms): none of them writes again.
CREATE TABLE IF NOT EXISTS "journal_fenced_member" (
  "member" VARCHAR(255) NOT NULL PRIMARY KEY,
  "fenced_at" BIGINT NOT NULL,
  "fenced_by" VARCHAR(255)
);
