-- pekko-persistence-jdbc 1.1 tables (its schema/h2/h2-create-schema.sql), with IF NOT EXISTS
-- everywhere so that running this on every start is harmless, and four changes for write speed,
-- each measured with `bin/bobbin bench full-path` (docs/performance-notes.md in the source tree,
-- "The embedded H2 journal"). The first two apply to a new journal only; an existing journal with
-- the plugin's layout keeps it.
CREATE TABLE IF NOT EXISTS "event_journal" (
  -- The primary key, not (persistence_id, sequence_number) as in its script: H2 keys a table's
  -- rows by a single BIGINT primary key, or else by a hidden row id plus a separate index for
  -- the key. So its layout kept three B-trees per insert (rows, key, ordering) where this keeps
  -- two; the pair stays UNIQUE, which is what catches a second writer.
  "ordering" BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  "deleted" BOOLEAN DEFAULT false NOT NULL,
  "persistence_id" VARCHAR(255) NOT NULL,
  "sequence_number" BIGINT NOT NULL,
  "writer" VARCHAR NOT NULL,
  "write_timestamp" BIGINT NOT NULL,
  "adapter_manifest" VARCHAR NOT NULL,
  -- VARBINARY, not its BLOB: H2 moves a BLOB over 256 bytes into separate LOB maps, several more
  -- B-trees to update per event (the full path ran 20% faster without). VARBINARY has no such
  -- threshold and holds up to 1 GB. Converting an older journal would rewrite every event while
  -- the member starts.
  "event_payload" VARBINARY NOT NULL,
  "event_ser_id" INTEGER NOT NULL,
  "event_ser_manifest" VARCHAR NOT NULL,
  "meta_payload" BLOB,
  "meta_ser_id" INTEGER,
  "meta_ser_manifest" VARCHAR,
  UNIQUE ("persistence_id", "sequence_number")
);

-- Its script also creates the unique index "event_journal_ordering_idx", a second copy of the
-- index the ordering column already has, so every insert would update both. An existing journal
-- that has it loses it here.
DROP INDEX IF EXISTS "event_journal_ordering_idx";

-- H2 reserves orderings in blocks of 32 by default, and reserving one commits the sequence: an
-- extra file write for every 32 events, 14% of the RM's CPU in the full-path bench. Reserving
-- 100,000 at a time costs a gap of up to that many orderings after kill -9, which the read
-- journal waits out once (journal-sequence-retrieval.max-tries) and then skips.
ALTER TABLE "event_journal" ALTER COLUMN "ordering" SET CACHE 100000;

CREATE TABLE IF NOT EXISTS "event_tag" (
  "event_id" BIGINT NOT NULL,
  "tag" VARCHAR NOT NULL,
  PRIMARY KEY ("event_id", "tag"),
  CONSTRAINT "fk_event_journal" FOREIGN KEY ("event_id")
    REFERENCES "event_journal" ("ordering") ON DELETE CASCADE
);

CREATE TABLE IF NOT EXISTS "snapshot" (
  "persistence_id" VARCHAR(255) NOT NULL,
  "sequence_number" BIGINT NOT NULL,
  "created" BIGINT NOT NULL,
  "snapshot_ser_id" INTEGER NOT NULL,
  "snapshot_ser_manifest" VARCHAR NOT NULL,
  "snapshot_payload" BLOB NOT NULL,
  "meta_ser_id" INTEGER,
  "meta_ser_manifest" VARCHAR,
  "meta_payload" BLOB,
  PRIMARY KEY ("persistence_id", "sequence_number")
);

-- Bobbin's own: checkpoints of entity states folded from the journal up to an ordering
-- (JournalCheckpoints), so that a reader starts there instead of at the first event. A checkpoint
-- is written as several parts in one transaction.
CREATE TABLE IF NOT EXISTS "journal_checkpoint" (
  "name" VARCHAR(255) NOT NULL,
  "ordering" BIGINT NOT NULL,
  "part" INTEGER NOT NULL,
  "created" BIGINT NOT NULL,
  "ser_id" INTEGER NOT NULL,
  "ser_manifest" VARCHAR NOT NULL,
  "payload" VARBINARY NOT NULL,
  PRIMARY KEY ("name", "ordering", "part")
);

-- pekko-projection-jdbc 1.0 tables (its H2 dialect, with lower-case names): where a projection
-- keeps its offset, written in the same transaction as what the projection makes of its events.
CREATE TABLE IF NOT EXISTS "pekko_projection_offset_store" (
  "projection_name" VARCHAR(255) NOT NULL,
  "projection_key" VARCHAR(255) NOT NULL,
  "current_offset" VARCHAR(255) NOT NULL,
  "manifest" VARCHAR(4) NOT NULL,
  "mergeable" BOOLEAN NOT NULL,
  "last_updated" BIGINT NOT NULL,
  PRIMARY KEY ("projection_name", "projection_key")
);

CREATE INDEX IF NOT EXISTS "projection_name_index" ON "pekko_projection_offset_store" ("projection_name");

CREATE TABLE IF NOT EXISTS "pekko_projection_management" (
  "projection_name" VARCHAR(255) NOT NULL,
  "projection_key" VARCHAR(255) NOT NULL,
  "paused" BOOLEAN NOT NULL,
  "last_updated" BIGINT NOT NULL,
  PRIMARY KEY ("projection_name", "projection_key")
);

-- Bobbin's own: the application list, a projection of the applications' tagged events. One row per
-- application: its report as JSON for readers, and the application entity's state (serialized as
-- the journal serializes it), to which the projection applies the next event. "ended" is the
-- ordering of the event that ended it (NULL while it is live): the oldest ended go first when
-- there are more than bobbin.rm.max-completed-applications.
CREATE TABLE IF NOT EXISTS "app_directory" (
  "app_id" VARCHAR(255) NOT NULL PRIMARY KEY,
  "state" VARCHAR(32) NOT NULL,
  "ended" BIGINT,
  "report" VARCHAR NOT NULL,
  "entity_ser_id" INTEGER NOT NULL,
  "entity_ser_manifest" VARCHAR NOT NULL,
  "entity_payload" VARBINARY NOT NULL
);

CREATE INDEX IF NOT EXISTS "app_directory_ended_idx" ON "app_directory" ("ended");

-- How many applications are in each state, counting those that left the list: the ended states
-- count every application that ever ended so (as YARN's appsCompleted, appsFailed, appsKilled),
-- and all states together every application ever submitted.
CREATE TABLE IF NOT EXISTS "app_directory_count" (
  "state" VARCHAR(32) NOT NULL PRIMARY KEY,
  "apps" BIGINT NOT NULL
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
