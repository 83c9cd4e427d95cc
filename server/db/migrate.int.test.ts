import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { getDatabase } from ".";
import { connectToSchema } from "../testing/test-database";
import { DEFAULT_POOL_MAX } from "./adapter";
import { openDatabase } from "./client";
import { describeSchema } from "./inspect";
import { applyMigrations, diffDatabaseToSchema, MIGRATIONS_DIR, readSchemaFiles } from "./migrate";

const db = await getDatabase();
const onPglite = db.config.kind === "pglite";
const schemaName = db.config.kind === "postgresql" ? db.config.schema : "public";

describe("migrations", () => {
  // The schema engine's introspection runs on PGlite only: @prisma/adapter-pg cannot decode the
  // "char" catalog columns it reads. PostgreSQL is held to the same schema by the catalog test below.
  it.runIf(onPglite)("produce exactly the schema in prisma/schema (no drift)", async () => {
    expect(await diffDatabaseToSchema(db.adapter)).toBe("");
  });

  it.runIf(onPglite)("report drift when the schema has a change no migration holds", async () => {
    const changed = (await readSchemaFiles()).map((file) => ({
      ...file,
      content: file.content.replace("model Account {\n", "model Account {\n  driftProbe String?\n"),
    }));
    const sql = await diffDatabaseToSchema(db.adapter, changed);
    expect(sql).toMatch(/ALTER TABLE "accounts" ADD COLUMN\s+"driftProbe" TEXT/);
  });

  it("give this database the same catalog as a fresh PGlite migrated from the same folder", async () => {
    const reference = await openDatabase({ kind: "pglite", dir: "memory://" });
    try {
      await applyMigrations(reference.adapter);
      const expected = await describeSchema(reference.prisma, "public");
      const actual = await describeSchema(db.prisma, schemaName);
      expect(expected.length).toBeGreaterThan(20);
      expect(actual).toEqual(expected);
    } finally {
      await reference.close();
    }
    // Every migration applied to a fresh PGlite: tens of seconds while the browser tests and the
    // other database's suite share the two cores.
  }, 120_000);

  it("applying them again is a no-op", async () => {
    expect(await applyMigrations(db.adapter)).toEqual([]);
  });

  // The schema engine's lock (pg_advisory_lock(72707369), database-wide) is never released by the
  // engine itself: kept by a process after migrating, it would make every other process migrating
  // the same database (an instance starting, a seed, a test run beside it) wait 10 s at a time.
  // Other processes may hold it for a moment while they migrate: what must not hold it is any
  // connection of this process's pool, each of which the check below occupies at once.
  it.runIf(!onPglite)("leave no migration lock on the client's connections, succeeding or failing", async () => {
    const ENGINE_LOCK = 72707369;
    const poolMax = (db.config.kind === "postgresql" && db.config.poolMax) || DEFAULT_POOL_MAX;
    const other = await connectToSchema(schemaName);
    const lockOnOwnPool = async () => {
      // More queries at once than the pool has connections: every connection runs one.
      const busy = Array.from({ length: poolMax + 2 }, () =>
        db.prisma.$queryRawUnsafe<{ pid: number }[]>("SELECT pg_backend_pid() AS pid FROM pg_sleep(0.05)"),
      );
      const own = new Set((await Promise.all(busy)).map((rows) => rows[0]!.pid));
      const { rows } = await other.query<{ pid: number }>(
        "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND granted",
        [ENGINE_LOCK],
      );
      return rows.some((row) => own.has(row.pid));
    };
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "mh-migrations-"));
    try {
      expect(await applyMigrations(db.adapter)).toEqual([]);
      expect(await lockOnOwnPool()).toBe(false);
      await fs.mkdir(path.join(dir, "99990101000000_failing"));
      await fs.writeFile(path.join(dir, "99990101000000_failing/migration.sql"), "SELECT 1/0;\n");
      await expect(applyMigrations(db.adapter, dir)).rejects.toThrow(/division by zero/);
      expect(await lockOnOwnPool()).toBe(false);
    } finally {
      await other.end();
      await db.adapter.exec(`DELETE FROM _prisma_migrations WHERE migration_name = '99990101000000_failing'`);
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  // Migrates a fresh database up to the engine and again to the end: longer than 30 s on a busy machine.
  it("carry the deliveries and e-mails pending before the job engine over as jobs", { timeout: 120_000 }, async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "mh-migrations-"));
    const old = await openDatabase({ kind: "pglite", dir: "memory://" });
    try {
      // The folder as it stood before the job engine's migration.
      for (const name of await fs.readdir(MIGRATIONS_DIR)) {
        if (name >= "20261122235123_jobs" && !name.endsWith(".toml")) continue;
        await fs.cp(path.join(MIGRATIONS_DIR, name), path.join(dir, name), { recursive: true });
      }
      await applyMigrations(old.adapter, dir);
      await old.adapter.exec(`
        INSERT INTO accounts (id, slug, name, jwt_secret, updated_at) VALUES (7, 'old', 'Old', 'x', now());
        INSERT INTO webhook_endpoints (id, account_id, kind, url, events, updated_at)
          VALUES ('00000000-0000-4000-8000-000000000001', 7, 'content', 'https://hooks.example.com/', '{story-publish}', now());
        INSERT INTO webhook_events (id, account_id, kind, name, payload, occurred_at)
          VALUES (1, 7, 'content', 'story-publish', '{}', now());
        INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, attempt_count, next_attempt_at, updated_at) VALUES
          ('00000000-0000-4000-8000-00000000000a', 1, '00000000-0000-4000-8000-000000000001', 'pending', 3, '2030-01-01T00:00:00Z', now()),
          ('00000000-0000-4000-8000-00000000000b', 1, '00000000-0000-4000-8000-000000000001', 'succeeded', 1, now(), now());
        INSERT INTO outgoing_emails (id, account_id, "to", subject, text, kind, status) VALUES
          ('00000000-0000-4000-8000-0000000000e1', 7, 'a@example.com', 'S', 'T', 'member.password_reset', 'pending'),
          ('00000000-0000-4000-8000-0000000000e2', 7, 'b@example.com', 'S', 'T', 'member.password_reset', 'sent');
      `);
      expect(await applyMigrations(old.adapter)).toContain("20261122235123_jobs");
      const jobs = await old.prisma.job.findMany({ orderBy: { name: "asc" } });
      expect(jobs.map((j) => [j.name, j.accountId, j.payload, j.status])).toEqual([
        ["mail.send", 7, { emailId: "00000000-0000-4000-8000-0000000000e1" }, "PENDING"],
        ["webhook.deliver", 7, { deliveryId: "00000000-0000-4000-8000-00000000000a" }, "PENDING"],
      ]);
      // The delivery stays due when it was due.
      expect(jobs[1]!.runAt.toISOString()).toBe("2030-01-01T00:00:00.000Z");
    } finally {
      await old.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it("apply a new migration folder in order and record it", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "mh-migrations-"));
    await fs.cp(MIGRATIONS_DIR, dir, { recursive: true });
    await fs.mkdir(path.join(dir, "99990101000000_probe"));
    await fs.writeFile(
      path.join(dir, "99990101000000_probe/migration.sql"),
      'CREATE TABLE "probe_table" ("id" INTEGER);\n',
    );
    try {
      expect(await applyMigrations(db.adapter, dir)).toEqual(["99990101000000_probe"]);
      const rows = await db.prisma.$queryRawUnsafe<{ migration_name: string }[]>(
        `SELECT migration_name FROM _prisma_migrations ORDER BY started_at`,
      );
      expect(rows.at(-1)?.migration_name).toBe("99990101000000_probe");
    } finally {
      await db.adapter.exec(
        `DROP TABLE IF EXISTS "probe_table"; DELETE FROM _prisma_migrations WHERE migration_name = '99990101000000_probe'`,
      );
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it("record a migration that fails as failed, and apply nothing more until its record is cleared", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "mh-migrations-"));
    await fs.cp(MIGRATIONS_DIR, dir, { recursive: true });
    const name = "99990101000000_failing";
    await fs.mkdir(path.join(dir, name));
    const file = path.join(dir, name, "migration.sql");
    await fs.writeFile(file, 'CREATE TABLE "probe_failing" ("id" INTEGER);\nSELECT 1/0;\n');
    const probeExists = async () =>
      (await db.prisma.$queryRawUnsafe<{ t: string | null }[]>(`SELECT to_regclass('probe_failing')::text AS t`))[0]!
        .t !== null;
    try {
      await expect(applyMigrations(db.adapter, dir)).rejects.toThrow(/division by zero/);
      const [record] = await db.prisma.$queryRawUnsafe<{ finished_at: Date | null; logs: string | null }[]>(
        `SELECT finished_at, logs FROM _prisma_migrations WHERE migration_name = $1`,
        name,
      );
      expect(record?.finished_at).toBeNull();
      expect(record?.logs).toMatch(/division by zero/);
      // Both databases run the script as one simple query, in one transaction: nothing of it stays.
      expect(await probeExists()).toBe(false);

      await expect(applyMigrations(db.adapter, dir)).rejects.toThrow(/failed migrations/);

      // The fix: undo what it left, correct it, clear its record, run again.
      await db.adapter.exec(`DROP TABLE IF EXISTS "probe_failing"`);
      await fs.writeFile(file, 'CREATE TABLE "probe_failing" ("id" INTEGER);\n');
      await db.adapter.exec(`DELETE FROM _prisma_migrations WHERE migration_name = '${name}' AND finished_at IS NULL`);
      expect(await applyMigrations(db.adapter, dir)).toEqual([name]);
      expect(await probeExists()).toBe(true);
    } finally {
      await db.adapter.exec(
        `DROP TABLE IF EXISTS "probe_failing"; DELETE FROM _prisma_migrations WHERE migration_name = '${name}'`,
      );
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
